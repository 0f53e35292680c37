"""The engine's mechanics: every move generator makes the moves of exactly one Mechanic, and a
variant's mechanics are those of the generators it installs (what consumers ask for)."""

from __future__ import annotations

import inspect

import pytest

from companion.rules import Mechanic, load_variant, variant_keys
from companion.rules.engine import Engine
from companion.rules.mechanics import MODULES, OWNER


def _generators():
    """Every move generator the engine has (its methods named ``_gen_*``)."""
    return [(name, f) for name, f in inspect.getmembers(Engine, inspect.isfunction)
            if name.startswith("_gen_")]


def test_every_generator_makes_one_mechanic():
    gens = _generators()
    assert len(gens) >= len(Mechanic)
    for name, f in gens:
        assert isinstance(getattr(f, "mechanic", None), Mechanic), \
            f"Engine.{name} names no Mechanic (mark it with @makes)"
    # and every mechanic is made by some generator
    assert {f.mechanic for _, f in gens} == set(Mechanic)


def _variants():
    for key in variant_keys():
        yield key, {}
        for spec in load_variant(key).option_specs:
            for value in spec.values if spec.kind == "choice" else ():
                if value != spec.default:
                    yield key, {spec.name: value}


@pytest.mark.parametrize("key,options", list(_variants()))
def test_a_variants_mechanics_are_its_generators(key, options):
    eng = load_variant(key, options).engine()
    made = [g.mechanic for g in eng.gens]
    assert all(isinstance(m, Mechanic) for m in made)
    assert len(made) == len(set(made))  # one generator for each mechanic a variant uses
    assert eng.mechanics == frozenset(made)


@pytest.mark.parametrize("key,mechanics", [
    ("klondike", {Mechanic.TO_FOUNDATIONS, Mechanic.TABLEAU, Mechanic.WASTE_TO_TABLEAU}),
    ("golf", {Mechanic.ONTO_WASTE}),
    ("accordion", {Mechanic.FOLDS}),
    ("pyramid", {Mechanic.PAIRS}),
    ("gaps", {Mechanic.GAPS}),
    ("spider", {Mechanic.DISCARD_SUITS, Mechanic.TABLEAU}),
    ("streets-and-alleys", {Mechanic.TO_FOUNDATIONS, Mechanic.TABLEAU}),
])
def test_mechanics_of_some_variants(key, mechanics):
    assert load_variant(key).engine().mechanics == mechanics


def test_each_mechanic_is_generated_in_the_module_registered_for_it():
    assert set(OWNER) == set(Mechanic)
    for name, f in _generators():
        assert f.__module__ == OWNER[f.mechanic].__name__, name
    for word, module in MODULES.items():
        assert word == module.WORD
