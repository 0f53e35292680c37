"""Variants as data: a TOML description per game, composed from the pieces in :mod:`.pieces`.

A description may ``extends`` another (defaults plus a delta, as Solvitaire does). Options are
data too: each names the dotted key it writes (``stock.draw``) or, per value, a table of keys.
Loading is strict: an unknown key or a bad value names the file, the key path and what is allowed.
"""

from __future__ import annotations

import copy
import difflib
import tomllib
import types
import typing
from dataclasses import MISSING, dataclass, fields, is_dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..cards import RANKS, rank_from_text
from ..errors import CompanionError, VariantError
from . import pieces as P
from .wins import WINS

if TYPE_CHECKING:
    from .engine import Engine

DEAL_VERSION = 1
"""Bumped whenever a change to the shuffle or a deal plan would change a seeded layout."""


@dataclass(frozen=True)
class Variant:
    key: str
    name: str
    summary: str
    decks: int = 1
    ranks: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    source: str = ""
    tableau: P.Tableau | None = None
    foundations: tuple[P.Foundations, ...] = ()
    stock: P.Stock | None = None
    waste: P.Waste | None = None
    pairs: P.Pairs | None = None
    pyramid: P.Pyramid | None = None
    accordion: P.Accordion | None = None
    gaps: P.Gaps | None = None
    reserve: P.Reserve | None = None
    aside: bool = False
    """A pile ``x`` for cards taken out of play (Gaps' aces)."""
    deal: tuple[P.DealStep, ...] = ()
    win: str = "foundations"
    option_specs: tuple[P.OptionSpec, ...] = ()
    options: tuple[tuple[str, object], ...] = ()
    """The chosen value of every option, in declaration order."""
    notes: tuple[str, ...] = ()

    # -- identity ---------------------------------------------------------------------------
    @property
    def rank_values(self) -> tuple[int, ...]:
        return tuple(rank_from_text(r) for r in self.ranks) if self.ranks else RANKS

    @property
    def deck_size(self) -> int:
        return len(self.rank_values) * 4 * self.decks

    def option(self, name: str) -> object:
        return dict(self.options)[name]

    def option_text(self, name: str, value: object = None) -> str:
        """An option's value (the chosen one, or ``value``) as the player types it."""
        spec = next(s for s in self.option_specs if s.name == name)
        return format_option(self.option(name) if value is None else value, spec)

    def changed_options(self) -> dict[str, object]:
        """Options that differ from their defaults: with the key and seed, they name one game."""
        defaults = {o.name: o.default for o in self.option_specs}
        return {k: v for k, v in self.options if defaults.get(k) != v}

    @property
    def identity(self) -> str:
        """``klondike`` or ``klondike:draw=1``: the key plus every non-default option."""
        changed = self.changed_options()
        if not changed:
            return self.key
        return self.key + ":" + ",".join(f"{k}={self.option_text(k)}" for k in changed)

    # -- piles ------------------------------------------------------------------------------
    @property
    def pile_names(self) -> tuple[str, ...]:
        return _pile_names(self)

    def engine(self) -> Engine:
        # lazy: engine and describe import this module (the cycle in tests/test_layers.py)
        from .engine import engine_for
        return engine_for(self)

    def describe(self) -> list[str]:
        """The rules in the project's own words, generated from the pieces."""
        # lazy: engine and describe import this module (the cycle in tests/test_layers.py)
        from .describe import describe
        return describe(self)


def format_option(value: object, spec: P.OptionSpec | None = None) -> str:
    """An option value as typed: ``true``/``false``, ``unlimited`` for a 0 that means no
    limit (when ``spec`` says so), else the value itself."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value == 0 and spec is not None and spec.unlimited:
        return "unlimited"
    return str(value)


def _pile_names(v: Variant) -> tuple[str, ...]:
    names: list[str] = []
    if v.tableau:
        names += [f"t{i}" for i in range(1, v.tableau.count + 1)]
    nf = sum(f.count for f in v.foundations)
    if nf:
        names += [f"f{i}" for i in range(1, nf + 1)] if nf > 1 else ["f"]
    if v.reserve:
        names += [f"r{i}" for i in range(1, v.reserve.count + 1)]
    if v.pyramid:
        n = v.pyramid.rows * (v.pyramid.rows + 1) // 2
        names += [f"p{i}" for i in range(1, n + 1)]
    if v.accordion:
        names += [f"p{i}" for i in range(1, v.deck_size + 1)]
    if v.gaps:
        names += [f"{'abcdefgh'[r]}{c}" for r in range(v.gaps.rows)
                  for c in range(1, v.gaps.columns + 1)]
    if v.stock:
        names.append("s")
    if v.waste:
        names.append("w")
    if v.aside:
        names.append("x")
    return tuple(names)


# -- loading -----------------------------------------------------------------------------------

class _LoadError(CompanionError):
    pass


def _catalogue_files() -> dict[str, str]:
    folder = resources.files("companion.rules") / "variants"
    return {f.name[:-5]: f.read_text(encoding="utf-8")
            for f in folder.iterdir() if f.name.endswith(".toml")}


@cache
def _raw_catalogue() -> dict[str, dict[str, Any]]:
    out = {}
    for key, text in _catalogue_files().items():
        try:
            out[key] = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise VariantError(f"variants/{key}.toml is not valid TOML: {exc}") from None
    return out


def _merged(key: str, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    raw = _raw_catalogue()
    if key in seen:
        raise VariantError(f"variants/{key}.toml: 'extends' goes round in a circle: {seen}")
    data = copy.deepcopy(raw[key])
    base = data.pop("extends", None)
    if base is None:
        return data
    if base not in raw:
        raise VariantError(f"variants/{key}.toml: extends unknown variant {base!r}")
    merged = _merged(base, (*seen, key))
    merged.pop("aliases", None)
    return _deep_merge(merged, data)


def _deep_merge(base: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in delta.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _deep_merge(out[k], v)
        else:
            out[k] = v
    return out


@cache
def _alias_table() -> dict[str, str]:
    table = {}
    for key, data in _raw_catalogue().items():
        table[key] = key
        for alias in data.get("aliases", ()):
            table[alias] = key
    return table


def variant_keys() -> list[str]:
    """Every variant's key, in catalogue order (the ``order`` field, then name)."""
    raw = _raw_catalogue()
    return sorted(raw, key=lambda k: (raw[k].get("order", 999), k))


def find_variant(name: str) -> str:
    """The key of a variant by its key or any alias, case-insensitive; or a VariantError."""
    norm = name.strip().lower().replace("_", "-").replace(" ", "-")
    table = _alias_table()
    if norm in table:
        return table[norm]
    close = difflib.get_close_matches(norm, list(table), n=3, cutoff=0.6)
    raise VariantError(
        f"unknown variant {name!r}. `companion variants` lists them all.",
        [table[c] if table[c] == c else f"{c} ({table[c]})" for c in close])


def load_variant(name: str, options: dict[str, object] | None = None) -> Variant:
    """The variant called ``name`` (key or alias), with ``options`` (text or typed values)."""
    key = find_variant(name)
    chosen = tuple(sorted((options or {}).items()))
    return _load(key, chosen)


@cache
def _load(key: str, chosen: tuple[tuple[str, object], ...]) -> Variant:
    data = _merged(key)
    data.pop("order", None)
    specs = _option_specs(key, data.pop("options", {}))
    by_name = {s.name: s for s in specs}
    values = {s.name: s.default for s in specs}
    for name, raw in chosen:
        norm = str(name).strip().lower().replace("-", "_")
        if norm not in by_name:
            raise VariantError(
                f"{key} has no option {name!r}; its options are: "
                + (", ".join(by_name) or "none"),
                difflib.get_close_matches(norm, list(by_name), n=2))
        values[norm] = _coerce_option(key, by_name[norm], raw)
    for spec in specs:
        _apply_option(key, data, spec, values[spec.name])
    data["option_specs"] = specs
    data["options"] = tuple((s.name, values[s.name]) for s in specs)
    data["key"] = key
    try:
        variant = _build(Variant, data, f"variants/{key}.toml")
    except _LoadError as exc:
        raise VariantError(str(exc)) from None
    _check(variant)
    return _configured_summary(variant)


def _configured_summary(v: Variant) -> Variant:
    """``v`` with its summary's ``{fields}`` filled from its pieces as the options set them
    (see :func:`companion.rules.describe.summary`)."""
    from dataclasses import replace

    # lazy: engine and describe import this module (the cycle in tests/test_layers.py)
    from .describe import summary
    try:
        return replace(v, summary=summary(v))
    except (KeyError, ValueError, IndexError) as exc:
        raise VariantError(f"variants/{v.key}.toml: summary has an unknown field {exc}; "
                           f"known: draw, passes, redeals, unit, space") from None


def _option_specs(key: str, table: dict[str, Any]) -> tuple[P.OptionSpec, ...]:
    specs = []
    for name, body in table.items():
        body = dict(body)
        if "values" in body:
            body["values"] = tuple(body["values"])
        try:
            specs.append(_build(P.OptionSpec, {"name": name, **body},
                                f"variants/{key}.toml: options.{name}"))
        except _LoadError as exc:
            raise VariantError(str(exc)) from None
    return tuple(specs)


def _coerce_option(key: str, spec: P.OptionSpec, raw: object) -> object:
    text = str(raw).strip().lower()
    if spec.kind == "bool":
        if isinstance(raw, bool):
            return raw
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise VariantError(f"{key} option {spec.name} takes true or false, not {raw!r}")
    if spec.kind == "int":
        if text == "unlimited" and spec.unlimited:
            return 0
        try:
            value = int(text)
        except ValueError:
            value = -1
        # Where 0 stands for 'unlimited' inside, a typed 0 is refused: it reads as "none".
        # (An int 0, from a position's JSON, is that stored 'unlimited'.)
        least = max(spec.minimum, 1) if spec.unlimited else spec.minimum
        if value < least and not (value == 0 and spec.unlimited and isinstance(raw, int)):
            zero = (f" (0 would allow none; write {spec.name}=unlimited for no limit)"
                    if spec.unlimited and value == 0 else "")
            raise VariantError(
                f"{key} option {spec.name} takes a whole number >= {least}"
                + (" or 'unlimited'" if spec.unlimited else "") + f", not {raw!r}{zero}")
        return value
    for allowed in spec.values:
        if text == str(allowed).lower():
            return allowed
    raise VariantError(f"{key} option {spec.name} takes one of "
                       + ", ".join(map(str, spec.values)) + f", not {raw!r}")


def _apply_option(key: str, data: dict[str, Any], spec: P.OptionSpec, value: object) -> None:
    if isinstance(spec.sets, str):
        _set_dotted(data, spec.sets, value)
    elif isinstance(spec.sets, dict):
        for k, v in spec.sets.get(format_option(value, spec), {}).items():
            _set_dotted(data, k, v)


def _set_dotted(data: dict[str, Any], dotted: str, value: object) -> None:
    *head, last = dotted.split(".")
    targets: list[Any] = [data]
    for part in head:
        nxt = []
        for t in targets:
            child = t.setdefault(part, {})
            nxt.extend(child if isinstance(child, list) else [child])
        targets = nxt
    for t in targets:
        t[last] = value


def _build(cls: Any, data: object, where: str) -> Any:
    """Strictly turn TOML data into the dataclass ``cls`` (recursively)."""
    if not isinstance(data, dict):
        raise _LoadError(f"{where}: expected a table, found {data!r}")
    hints = typing.get_type_hints(cls)
    known = {f.name: f for f in fields(cls)}
    unknown = set(data) - set(known)
    if unknown:
        raise _LoadError(f"{where}: unknown key {sorted(unknown)[0]!r}; allowed: "
                         + ", ".join(known))
    kwargs = {}
    for name, f in known.items():
        if name not in data:
            if f.default is MISSING and f.default_factory is MISSING:
                raise _LoadError(f"{where}: missing key {name!r}")
            continue
        kwargs[name] = _convert(hints[name], data[name], f"{where}: {name}")
    return cls(**kwargs)


def _convert(hint: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        return None if value is None else _convert(inner[0], value, where)
    if origin is tuple:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list | tuple):
            raise _LoadError(f"{where}: expected a list, found {value!r}")
        args = typing.get_args(hint)
        if not args:
            return tuple(value)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(args[0], v, f"{where}[{i}]") for i, v in enumerate(value))
        return tuple(_convert(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(
            zip(args, value, strict=True)))
    if is_dataclass(hint):
        # (hint is a dataclass type here: mypy narrows it to an instance or a type)
        return value if isinstance(value, hint) else _build(  # type: ignore[arg-type]
            hint, value, where)
    if hint is object:
        return value
    if hint is bool and not isinstance(value, bool):
        raise _LoadError(f"{where}: expected true or false, found {value!r}")
    if hint is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise _LoadError(f"{where}: expected a whole number, found {value!r}")
    if hint is str and not isinstance(value, str):
        raise _LoadError(f"{where}: expected text, found {value!r}")
    return value


_ENUMS = {
    "direction": P.DIRECTIONS, "suits": P.SUIT_RULES, "move": P.MOVE_UNITS,
    "space": P.SPACE_RULES, "deal": P.STOCK_DEALS,
}


def _check(v: Variant) -> None:
    """Cross-field checks: closed vocabularies, and a deal plan that uses the deck exactly."""
    where = f"variants/{v.key}.toml"

    def enum(value: str, allowed: tuple[str, ...], path: str) -> None:
        if value not in allowed:
            raise VariantError(f"{where}: {path} = {value!r}; allowed: " + ", ".join(allowed))

    builds = []
    if v.tableau:
        builds.append(("tableau.build", v.tableau.build))
        enum(v.tableau.move, P.MOVE_UNITS, "tableau.move")
        enum(v.tableau.space, P.SPACE_RULES, "tableau.space")
        for k, src in enumerate(v.tableau.space_from):
            enum(src, P.SPACE_SOURCES, f"tableau.space_from[{k}]")
    for i, f in enumerate(v.foundations):
        builds.append((f"foundations[{i}].build", f.build))
    if v.waste and v.waste.build:
        builds.append(("waste.build", v.waste.build))
    for path, b in builds:
        enum(b.direction, P.DIRECTIONS, path + ".direction")
        enum(b.suits, P.SUIT_RULES, path + ".suits")
    if v.stock:
        enum(v.stock.deal, P.STOCK_DEALS, "stock.deal")
        enum(v.stock.redeal, P.REDEALS, "stock.redeal")
    if v.reserve:
        enum(v.reserve.accepts, ("none", "card", "unit"), "reserve.accepts")
        enum(v.reserve.when, ("always", "stock-empty", "last-pass"), "reserve.when")
        enum(v.reserve.move, ("single", "run"), "reserve.move")
    enum(v.win, tuple(WINS), "win")
    for step in v.deal:
        enum(step.step, P.DEAL_STEPS, "deal.step")
    for r in v.ranks:
        rank_from_text(r)
    if v.pairs:
        enum(v.pairs.match, ("sum", "rank"), "pairs.match")

