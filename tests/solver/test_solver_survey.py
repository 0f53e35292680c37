"""Surveys: seed ranges, the published interval protocol, resuming, the verdicts catalogue."""

from __future__ import annotations

import json
import math
import shutil

import pytest

from companion import seeds as catalogue
from companion.solver.survey import Rate, parse_seeds, run, solver_verdicts, wilson, write_verdicts


def test_seed_ranges():
    assert parse_seeds("1-5") == [1, 2, 3, 4, 5]
    assert parse_seeds("3, 1-2,3") == [3, 1, 2]
    for bad in ("5-1", "x", "", "1-2-3"):
        with pytest.raises(ValueError):
            parse_seeds(bad)


def test_a_range_with_a_minus_sign_is_not_read_as_backwards():
    with pytest.raises(ValueError) as info:
        parse_seeds("1--3")
    assert "not a seed range: write whole numbers from 0" in str(info.value)
    assert "-3-1" not in str(info.value)
    with pytest.raises(ValueError, match=r"runs backwards: .* e\.g\. 2-5"):
        parse_seeds("5-2")


def test_the_observed_rate_and_the_interval_are_reported_apart():
    # One deal won: the rate seen is 100 %, the interval's midpoint (60.3 %) is only named
    # as Blake & Gent's form.
    assert Rate(1, 0, 0).text() == (
        "won 1, lost 0, unknown 0 of 1: observed win rate 100.0 %; 95 % interval "
        "20.6-100.0 % (Wilson; Blake & Gent's form 60.3 % ± 39.7 %)")
    text = Rate(819, 104, 77).text()
    assert "observed win rate 88.7 % of the 923 settled; 95 % interval 79.3-91.4 % " \
           "(Wilson, unknowns counted both ways; Blake & Gent's form 85.4 % ± 6.0 %)" in text
    assert Rate(0, 0, 2).text().startswith("won 0, lost 0, unknown 2 of 2: no deal settled;")
    data = Rate(3, 2, 1).to_json()
    assert data["observed"] == 0.6 and data["settled"] == 5


def test_wilson_interval_holds_the_sample_rate():
    for k, n in [(0, 10), (3, 10), (10, 10), (451, 1000)]:
        lo, hi = wilson(k, n)
        assert 0 <= lo <= k / n <= hi <= 1


def test_interval_protocol_reproduces_blake_and_gent_klondike():
    # Table 8 of the paper: 819,371 won, 180,472 lost, 157 unknown of 10^6; published
    # 81.945 ± 0.084 %.
    # The bounds are rounded outward (to 0.001 %), then given as centre ± half-width.
    lo, hi = Rate(819_371, 180_472, 157).interval()
    lo, hi = math.floor(lo * 1e5) / 1e3, math.ceil(hi * 1e5) / 1e3
    assert (lo + hi) / 2 == pytest.approx(81.945, abs=1e-9)
    assert (hi - lo) / 2 == pytest.approx(0.084, abs=1e-9)


def test_an_interrupted_survey_resumes(tmp_path):
    out = tmp_path / "s.jsonl"
    run("streets-and-alleys", {}, [1, 2, 3], nodes=200, jobs=1, out=out)
    assert len(out.read_text().splitlines()) == 3
    recs = run("streets-and-alleys", {}, [1, 2, 3, 4, 5], nodes=200, jobs=1, out=out)
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["seed"] for r in lines] == [1, 2, 3, 4, 5]  # only 4 and 5 were added
    assert set(recs) == {1, 2, 3, 4, 5}
    assert all(r["verdict"] in ("won", "lost", "unknown") for r in lines)
    # other options are another survey: nothing is skipped
    run("klondike", {"draw": 1}, [1], nodes=50, jobs=1, out=out)
    assert len(out.read_text().splitlines()) == 6


def test_a_resumed_survey_solves_again_the_unknowns_a_smaller_budget_left(tmp_path,
                                                                          monkeypatch):
    # issue 49: a survey at 30 s over a file from a 10 s run retried nothing
    from companion.solver import survey
    out = tmp_path / "s.jsonl"
    key = "streets-and-alleys"
    first = run(key, {}, [1, 2, 3, 4], nodes=30, jobs=1, out=out)
    assert [first[s]["verdict"] for s in (1, 2, 3, 4)] == ["unknown"] * 3 + ["lost"]
    assert all((r["budget_seconds"], r["budget_nodes"]) == (10.0, 30) for r in first.values())
    solved = []
    real = survey.solve_seed
    monkeypatch.setattr(survey, "solve_seed", lambda task: solved.append(task[2]) or real(task))
    told = []
    # the same budget, or a smaller one, or less of one limit: nothing is solved again
    for seconds, nodes in ((10.0, 30), (10.0, 20), (5.0, 3000)):
        run(key, {}, [1, 2, 3, 4], seconds=seconds, nodes=nodes, jobs=1, out=out,
            retrying=told.append)
    assert solved == [] and told == []
    # a larger budget: the unknowns are solved again (and said first), the proof stays
    recs = run(key, {}, [1, 2, 3, 4], nodes=3000, jobs=1, out=out, retrying=told.append)
    assert sorted(solved) == [1, 2, 3] and [sorted(r["seed"] for r in told[0])] == [[1, 2, 3]]
    assert [recs[s]["verdict"] for s in (1, 2, 3, 4)] == ["won", "lost", "won", "lost"]
    assert survey.read_done(out, key)[1]["verdict"] == "won"
    # a proof is never replaced by a later unknown in the file (a copied line, say)
    with out.open("a") as fh:
        fh.write(json.dumps({**recs[1], "verdict": "unknown"}) + "\n")
    assert survey.read_done(out, key)[1]["verdict"] == "won"


def test_an_unknown_from_an_older_file_is_retried_when_this_budget_exceeds_its_search():
    from companion.solver.survey import deserves_retry
    old = {"seed": 1, "verdict": "unknown", "nodes": 5000, "seconds": 10.02}  # no budget kept
    assert deserves_retry(old, 30.0, None) and not deserves_retry(old, 10.0, None)
    assert not deserves_retry(old, 30.0, 4000)   # fewer positions than it searched
    assert not deserves_retry({**old, "verdict": "won"}, 30.0, None)
    new = {**old, "budget_seconds": 10.0, "budget_nodes": None}
    assert deserves_retry(new, 30.0, None) and not deserves_retry(new, 10.0, None)
    assert not deserves_retry(new, 30.0, 10_000_000)   # a limit it did not have


def test_parallel_survey_gives_the_same_verdicts_as_one_process(tmp_path):
    one = run("streets-and-alleys", {}, [2, 4, 9], nodes=500, jobs=1)
    two = run("streets-and-alleys", {}, [2, 4, 9], nodes=500, jobs=2)
    assert {s: r["verdict"] for s, r in one.items()} == {s: r["verdict"] for s, r in two.items()}


def test_solver_verdicts_fill_the_catalogue_column_without_touching_fingerprints(tmp_path):
    key = "streets-and-alleys"
    shutil.copy(catalogue.catalogue_file(key), tmp_path / f"{key}.tsv")
    before = catalogue.expected_fingerprints(key, tmp_path)
    got = solver_verdicts(key, [1, 2, 3], timeout=0.2)
    assert set(got) == {1, 2, 3} and set(got.values()) <= {"won", "lost", "unknown"}
    write_verdicts(tmp_path, timeout=0.02, variants=[key], jobs=1)
    assert catalogue.expected_fingerprints(key, tmp_path) == before
    verdicts = catalogue.verdicts(key, tmp_path)
    assert set(verdicts.values()) <= {"won", "lost", "unknown"}


def test_a_survey_runs_on_a_dask_cluster_too(tmp_path):
    distributed = pytest.importorskip("distributed", reason="the [cluster] extra is not "
                                                            "installed")
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=2,
                                  dashboard_address=None) as cluster:
        out = tmp_path / "c.jsonl"
        recs = run("streets-and-alleys", {}, [2, 4, 9], nodes=500, out=out,
                   scheduler=cluster.scheduler_address)
    local = run("streets-and-alleys", {}, [2, 4, 9], nodes=500, jobs=1)
    assert {s: r["verdict"] for s, r in recs.items()} == \
        {s: r["verdict"] for s, r in local.items()}
    assert len(out.read_text().splitlines()) == 3


def test_an_unreachable_scheduler_is_reported(monkeypatch):
    pytest.importorskip("distributed", reason="the [cluster] extra is not installed")
    from companion.solver import SolverError, survey
    monkeypatch.setattr(survey, "CONNECT_TIMEOUT", 1)
    with pytest.raises(SolverError, match="cannot reach"):
        run("golf", {}, [1], nodes=10, scheduler="tcp://127.0.0.1:9")


def test_a_shorter_run_never_erases_a_proof_and_contradicting_proofs_stop_it(tmp_path):
    from companion.errors import CompanionError
    from companion.solver.survey import merge_verdict
    assert merge_verdict("won", "unknown") == "won"
    assert merge_verdict("lost", "unknown") == "lost"
    assert merge_verdict("unknown", "won") == "won" and merge_verdict("-", "lost") == "lost"
    assert merge_verdict("-", "unknown") == "unknown"
    with pytest.raises(CompanionError, match="streets-and-alleys seed 2"):
        merge_verdict("won", "lost", "streets-and-alleys seed 2")
    # Through the catalogue: seed 1 is a proved win in Streets and Alleys; a run with a
    # budget too small to find it again (one position) keeps it.
    key = "streets-and-alleys"
    shutil.copy(catalogue.catalogue_file(key), tmp_path / f"{key}.tsv")
    assert catalogue.verdicts(key, tmp_path)[1] == "won"
    assert solver_verdicts(key, [1], nodes=1)[1] == "unknown"
    said = []
    write_verdicts(tmp_path, timeout=5, variants=[key], jobs=1, nodes=1, progress=said.append)
    kept = catalogue.verdicts(key, tmp_path)
    assert kept[1] == "won"
    # the summary printed is the catalogue as written, not this run's (mostly unknown) verdicts
    won = sum(1 for v in kept.values() if v == "won")
    assert said and said[0].startswith(f"{key}: won {won}, ")
