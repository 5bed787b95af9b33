"""Overhead per tool call of the Python package, against a bare call and against tenacity alone.

Every variant calls the same trivial tool; rounds are interleaved (each round runs every variant
once, in rotating order) so machine noise hits all of them alike. Prints the median cost per call
and its spread (10th–90th percentile over rounds), and the ratios to the bare call and to tenacity
measured in the same run. Records go to a sink that counts them (what the exporter's ``record()``
costs is measured separately as ``exporter.record``, with the network thread idle).

    sdk/python/.venv/bin/python sdk/python/bench/overhead.py [--rounds 30] [--calls 2000]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import tenacity

from faultline import Run, ToolRunner, retry, tool
from faultline.exporter import Exporter
from faultline.integrations.tenacity import faultline_retry


class CountingSink:
    """Counts records; keeps nothing."""

    def __init__(self) -> None:
        self.n = 0

    def record(self, record: dict[str, Any]) -> None:
        self.n += 1


def add(a: int, b: int) -> int:
    return a + b


def variants() -> dict[str, Callable[[int], None]]:
    sink = CountingSink()
    definition = tool(name="add")(add)
    runner = ToolRunner(agent="bench", tools=[definition], sink=sink)
    run = runner.run()
    plain_tenacity = tenacity.retry(stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_none())(add)
    decorated = retry("add")(add)
    integrated = faultline_retry("add", stop=tenacity.stop_after_attempt(3), wait=tenacity.wait_none())(add)
    ambient = Run(agent="bench", sink=sink)
    exporter = Exporter("http://127.0.0.1:9", "k", flush_interval_ms=3_600_000, max_queue_size=10**9, max_queue_bytes=10**12, max_batch_size=1000)
    span = {"type": "tool_call_span", "id": "s", "run_id": "r", "call_id": "c", "tool": "add", "attempt": 1, "started_at": 1, "ended_at": 2, "outcome": "ok"}

    def bare(n: int) -> None:
        for i in range(n):
            add(i, 1)

    def tenacity_alone(n: int) -> None:
        for i in range(n):
            plain_tenacity(i, 1)

    def run_loop(n: int) -> None:
        for i in range(n):
            run.call("add", {"a": i, "b": 1})

    def retry_decorator(n: int) -> None:
        with ambient.__class__(agent="bench", sink=sink):
            for i in range(n):
                decorated(i, 1)

    def tenacity_integration(n: int) -> None:
        with ambient.__class__(agent="bench", sink=sink):
            for i in range(n):
                integrated(i, 1)

    def exporter_record(n: int) -> None:
        for _ in range(n):
            exporter.record(span)
        exporter._queue.clear()  # keep memory flat; the counters are not read here

    return {
        "bare call": bare,
        "tenacity alone": tenacity_alone,
        "faultline run.call": run_loop,
        "faultline @retry": retry_decorator,
        "faultline_retry (tenacity)": tenacity_integration,
        "exporter.record": exporter_record,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--calls", type=int, default=2000)
    options = parser.parse_args()
    cases = variants()
    names = list(cases)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for name in names:  # warm-up
        cases[name](options.calls // 10)
    for r in range(options.rounds):
        order = names[r % len(names):] + names[: r % len(names)]
        for name in order:
            started = time.perf_counter_ns()
            cases[name](options.calls)
            samples[name].append((time.perf_counter_ns() - started) / options.calls)
    median = {name: statistics.median(values) for name, values in samples.items()}
    print(f"{options.rounds} interleaved rounds × {options.calls} calls; ns per call: median [p10–p90]; ratios of medians")
    print(f"{'variant':<28} {'ns/call':>10} {'p10–p90':>17} {'× bare':>8} {'× tenacity':>11}")
    for name in names:
        values = sorted(samples[name])
        p10, p90 = values[len(values) // 10], values[(len(values) * 9) // 10]
        print(
            f"{name:<28} {median[name]:>10.0f} {f'{p10:.0f}–{p90:.0f}':>17} "
            f"{median[name] / median['bare call']:>8.1f} {median[name] / median['tenacity alone']:>11.2f}"
        )


if __name__ == "__main__":
    main()
