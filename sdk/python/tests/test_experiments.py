"""Wording experiments in the run loop, and the shared vectors test/vectors/assignment.json and wording-set.json."""

from __future__ import annotations

from typing import Any

import pytest

from faultline import (
    Experiment,
    MemorySink,
    Run,
    ToolErrorMap,
    ToolFailure,
    ToolRefusal,
    ToolRunner,
    Variant,
    WordingEntry,
    WordingSet,
    WordingVariant,
    assign_variant,
    assignment_bucket,
    define_experiment,
    fnv1a32,
    permanent,
    refusal,
    retry,
    sequential_ids,
    tool,
)
from faultline.otel import span_attributes

from .conftest import FakeClock, vector
from .test_records import errors_of

ASSIGNMENT = vector("assignment.json")
WORDING_SETS = vector("wording-set.json")

FARE = define_experiment(
    "fare-wording",
    [Variant("control", "fare class no longer sold"), Variant("pick-another", "pick another fare class from the search_flights results")],
)
NOT_RETRYABLE = "retryable: no (repeating the same call will not help)"


@pytest.mark.parametrize("case", ASSIGNMENT["fnv"], ids=[repr(c["input"])[:30] for c in ASSIGNMENT["fnv"]])
def test_fnv1a_matches_the_typescript_runtime(case: dict[str, Any]) -> None:
    assert fnv1a32(case["input"]) == case["hash"]


@pytest.mark.parametrize("case", ASSIGNMENT["cases"], ids=[c["name"] for c in ASSIGNMENT["cases"]])
def test_assignment_matches_the_typescript_runtime(case: dict[str, Any]) -> None:
    variants = [Variant(v["id"], v["id"], v["weight"]) for v in case["variants"]]
    for r in case["runs"]:
        assert assignment_bucket(r["run_id"], case["experiment"]) == r["bucket"], r["run_id"]
        chosen = assign_variant(r["run_id"], case["experiment"], variants)
        assert (chosen.id if chosen else None) == r["variant"], r["run_id"]


def test_the_vector_covers_every_edge_between_variants() -> None:
    fractions = next(c for c in ASSIGNMENT["cases"] if c["name"].startswith("fractional"))
    # 0.1 + 0.2 is 0.30000000000000004 in doubles: only left-to-right double sums put bucket 3000 in b.
    assert [r["variant"] for r in fractions["runs"] if r["bucket"] in (2999, 3000, 3001)] == ["b", "b", "c"]
    assert sum(len(c["runs"]) for c in ASSIGNMENT["cases"]) >= 400


def _entries(ws: WordingSet) -> list[dict[str, Any]]:
    return [
        {"code": e.code, "tool": e.tool, "experiment": e.experiment, "state": e.state, "variants": [vars(v) for v in e.variants]}
        for e in ws.entries
    ]


@pytest.mark.parametrize("case", WORDING_SETS, ids=[c["name"] for c in WORDING_SETS])
def test_wording_set_answers_are_kept_or_refused_as_the_typescript_runtime_does(case: dict[str, Any]) -> None:
    if "error_path" in case:
        with pytest.raises(TypeError) as refused:
            WordingSet.parse(case["answer"])
        assert str(refused.value).startswith(f"not a wording set: {case['error_path']}: ")
    else:
        assert _entries(WordingSet.parse(case["answer"])) == case["entries"]


def test_define_experiment_refuses_what_would_never_run_as_declared() -> None:
    with pytest.raises(TypeError, match="experiment id"):
        define_experiment("bad id!", FARE.variants)
    with pytest.raises(TypeError, match="2 to 4 variants"):
        define_experiment("x", [Variant("a", "one")])
    with pytest.raises(TypeError, match="repeats variant a"):
        define_experiment("x", [Variant("a", "one"), Variant("a", "two")])
    with pytest.raises(TypeError, match="needs a text"):
        define_experiment("x", [Variant("a", "one"), Variant("b", " ")])
    with pytest.raises(TypeError, match="weight must be a finite number"):
        define_experiment("x", [Variant("a", "one"), Variant("b", "two", float("nan"))])
    with pytest.raises(TypeError, match="every weight is 0"):
        define_experiment("x", [Variant("a", "one", 0), Variant("b", "two", 0)])
    scrubbed = define_experiment("x", [Variant("a", "  mail ada@example.com  "), Variant("b", "w" * 1200)])
    assert [v.text for v in scrubbed.variants] == ["mail [redacted:email]", "w" * 999 + "…"]


def _booking(experiment: Experiment | None = FARE) -> Any:
    @tool(name="book_flight")
    def book(**_: Any) -> str:
        raise ToolFailure("book_flight", "fare_class_unavailable", message="fare class no longer sold", experiment=experiment)

    return book


def _one_error(run_id: str, clock: FakeClock, definition: Any = None, **options: Any) -> dict[str, Any]:
    sink = MemorySink()
    runner = ToolRunner(agent="booking", tools=[definition or _booking()], sink=sink, clock=clock, ids=sequential_ids(), **options)
    with runner.run(run_id=run_id) as run:
        run.call(definition.name if definition else "book_flight", {}, call_id="c1")
    for record in sink.records:
        assert errors_of(record) == [], record
    return sink.of_type("tool_error")[0]


def test_the_assigned_wording_replaces_the_message_and_nothing_else_changes(clock: FakeClock) -> None:
    plain = _one_error("run-7", clock, _booking(None))
    tried = _one_error("run-7", clock)
    chosen = assign_variant("run-7", "fare-wording", FARE.variants)
    assert chosen is not None
    assert (tried["experiment"], tried["variant"]) == ("fare-wording", chosen.id)
    assert tried["told"] == f"error: fare_class_unavailable: {chosen.text}\n{NOT_RETRYABLE}"
    assert "experiment" not in plain and "variant" not in plain
    drop = ("told", "experiment", "variant")
    assert {k: v for k, v in tried.items() if k not in drop} == {k: v for k, v in plain.items() if k not in drop}
    # The record's field order is the TypeScript builder's: the arm right after occurred_at.
    assert list(tried)[-2:] == ["experiment", "variant"]


def test_a_run_hears_one_wording_on_every_call_and_runs_hear_both(clock: FakeClock) -> None:
    sink = MemorySink()
    runner = ToolRunner(agent="booking", tools=[_booking()], sink=sink, clock=clock, ids=sequential_ids())
    for r in range(40):
        with runner.run(run_id=f"run-{r}") as run:
            for c in range(3):
                run.call("book_flight", {}, call_id=f"c{c}")
    by_run: dict[str, set[str]] = {}
    for e in sink.of_type("tool_error"):
        by_run.setdefault(e["run_id"], set()).add(f"{e['variant']}|{e['told']}")
    assert all(len(heard) == 1 for heard in by_run.values())
    assert {e["variant"] for e in sink.of_type("tool_error")} == {"control", "pick-another"}


async def test_the_async_loop_tells_the_same_wording(clock: FakeClock) -> None:
    sink = MemorySink()
    runner = ToolRunner(agent="booking", tools=[_booking()], sink=sink, clock=clock, ids=sequential_ids(), async_sleep=clock.async_sleep)
    async with runner.run(run_id="run-3") as run:
        result = await run.acall("book_flight", {}, call_id="c1")
    chosen = assign_variant("run-3", "fare-wording", FARE.variants)
    assert chosen is not None and result.told is not None and chosen.text in result.told
    assert sink.of_type("tool_error")[0]["variant"] == chosen.id


def test_an_experiment_on_an_error_map_rule_refusals_included(clock: FakeClock) -> None:
    class SoldOut(Exception):
        pass

    rules = ToolErrorMap({SoldOut: permanent("fare_class_unavailable", experiment=FARE)})

    @tool(name="book_flight", error_map=rules)
    def book() -> str:
        raise SoldOut("sold out")

    e = _one_error("run-9", clock, book)
    assert e["experiment"] == "fare-wording"
    assert next(v.text for v in FARE.variants if v.id == e["variant"]) in e["told"]

    class NonRefundable(Exception):
        pass

    lopsided = define_experiment("refusal-wording", [Variant("x", "X", 1), Variant("y", "Y", 0)])

    @tool(name="cancel", error_map=ToolErrorMap({NonRefundable: refusal("not_cancellable", "non-refundable", experiment=lopsided)}))
    def cancel() -> str:
        raise NonRefundable("409")

    r = _one_error("run-9", clock, cancel)
    assert {k: r[k] for k in ("experiment", "variant", "told", "decision", "error_class")} == {
        "experiment": "refusal-wording", "variant": "x", "told": "not_cancellable: X", "decision": "delivered", "error_class": "ToolRefusal",
    }  # fmt: skip


def test_no_experiment_is_recorded_when_the_run_fails_at_the_error(clock: FakeClock) -> None:
    e = _one_error("run-7", clock, on_tool_error="fail_run")
    assert e["told"] is None
    assert "experiment" not in e


def _running(**over: Any) -> WordingEntry:
    fields: dict[str, Any] = dict(
        code="fare_class_unavailable", tool=None, experiment="fare-remote", state="running",
        variants=(WordingVariant("a", "remote wording A", 50), WordingVariant("b", "remote wording B", 50)),
    )  # fmt: skip
    fields.update(over)
    return WordingEntry(**fields)


def test_faultlines_entry_wins_a_promoted_winner_is_no_experiment_and_remote_text_is_scrubbed(clock: FakeClock) -> None:
    remote = _one_error("run-7", clock, wordings=WordingSet([_running()]))
    assert remote["experiment"] == "fare-remote"
    assert f"remote wording {remote['variant'].upper()}" in remote["told"]
    promoted = WordingSet([_running(state="promoted", variants=(WordingVariant("b", "see https://bob:hunter22@x.example/y", 100),))])
    won = _one_error("run-7", clock, wordings=promoted)
    assert "experiment" not in won and "variant" not in won
    assert won["told"] == f"error: fare_class_unavailable: see https://bob:[redacted:url_password]@x.example/y\n{NOT_RETRYABLE}"
    assert (won["code"], won["error_class"], won["retryable"], won["decision"]) == ("fare_class_unavailable", "ToolFailure", False, "surfaced")


def test_a_tools_own_entry_wins_over_the_code_wide_one(clock: FakeClock) -> None:
    both = WordingSet([_running(experiment="everywhere"), _running(tool="book_flight", experiment="this-tool")])
    assert _one_error("run-1", clock, wordings=both)["experiment"] == "this-tool"


def test_a_raising_wording_source_falls_back_to_the_local_experiment(clock: FakeClock) -> None:
    class Broken:
        def current(self) -> WordingSet | None:
            raise RuntimeError("boom")

    assert _one_error("run-7", clock, wordings=Broken())["experiment"] == "fare-wording"


def test_argument_errors_keep_their_repair_feedback(clock: FakeClock) -> None:
    @tool(name="book_flight", validate=lambda args: {"date": "must be an ISO date"})
    def book(**_: Any) -> str:
        return "ok"

    entry = _running(code="invalid_arguments")
    e = _one_error("run-7", clock, book, wordings=WordingSet([entry]))
    assert "experiment" not in e
    assert e["told"].startswith("invalid_arguments: book_flight did not run")


def test_the_retry_decorator_tells_the_wording_of_its_run(clock: FakeClock) -> None:
    sink = MemorySink()

    @retry("book_flight")
    def book() -> str:
        raise ToolFailure("book_flight", "fare_class_unavailable", message="sold out", experiment=FARE)

    with Run(agent="booking", sink=sink, clock=clock, ids=sequential_ids(), run_id="run-5", wordings=WordingSet([])):
        with pytest.raises(ToolFailure):
            book()
    chosen = assign_variant("run-5", "fare-wording", FARE.variants)
    e = sink.of_type("tool_error")[0]
    assert chosen is not None and (e["variant"], e["told"].split("\n")[0]) == (chosen.id, f"error: fare_class_unavailable: {chosen.text}")


def test_otel_mode_carries_the_arm_on_the_tool_error_span(clock: FakeClock) -> None:
    attributes = span_attributes(_one_error("run-7", clock))
    chosen = assign_variant("run-7", "fare-wording", FARE.variants)
    assert chosen is not None
    assert (attributes["faultline.experiment"], attributes["faultline.variant"]) == ("fare-wording", chosen.id)
    assert "faultline.experiment" not in span_attributes(_one_error("run-7", clock, _booking(None)))
