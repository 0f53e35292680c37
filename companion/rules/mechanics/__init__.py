"""The rule mechanics, one module each, registered under the word a variant's TOML uses for
the table that switches it on (``[tableau]``, ``[gaps]`` ...). Each module owns its move
generation and application (a mixin of the engine), its refusal reasons and its rules-text
sentences; the win rules are in :mod:`..wins`. A variant's TOML and the modules its tables
name hold every rule it plays by.
"""

from __future__ import annotations

from types import ModuleType

from . import accordion, foundations, gaps, pairs, reserve, stock, tableau, waste
from .base import Mechanic

MODULES: dict[str, ModuleType] = {m.WORD: m for m in (
    tableau, foundations, reserve, stock, waste, pairs, accordion, gaps)}
"""Every mechanic module by its TOML word."""

OWNER: dict[Mechanic, ModuleType] = {mech: m for m in MODULES.values() for mech in m.MECHANICS}
"""The module that generates each kind of move."""
