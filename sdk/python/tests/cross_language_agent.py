"""The scripted agent of test/vectors/scripted-run.json through the Python package and its exporter.

Run by test/api/python-cross-language.test.ts (the TypeScript runtime runs the same script):
``python cross_language_agent.py <endpoint> <api key> <epoch ms> <id prefix> [native|otel]``. Prints the run id.
``native`` sends through the package's exporter; ``otel`` puts the same facts on OpenTelemetry spans
(:class:`faultline.otel.OtelSink`) exported by the OpenTelemetry SDK's OTLP/HTTP exporter to ``/v1/traces``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from faultline import ToolRunner
from faultline.exporter import Exporter
from faultline.records import IdKind
from scripted import scripted_tools  # this file runs as a script from tests/


def otel_sink(endpoint: str, key: str, environment: str) -> tuple[Any, Callable[[], None]]:
    """An OtelSink on a tracer provider that exports OTLP/HTTP to Faultline, and its shutdown."""
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    from faultline.otel import OtelSink

    provider = TracerProvider(resource=Resource.create({"service.name": "cross-language", "deployment.environment.name": environment}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=f"{endpoint}/v1/traces", headers={"x-faultline-key": key})))
    return OtelSink(provider.get_tracer("faultline-python")), provider.shutdown


def main(endpoint: str, key: str, now: float, prefix: str, mode: str = "native") -> None:
    script = json.loads((Path(__file__).resolve().parents[3] / "test/vectors/scripted-run.json").read_text(encoding="utf-8"))
    n = 0

    def ids(kind: IdKind) -> str:
        nonlocal n
        n += 1
        return f"{prefix}{kind}_{n}"

    exporter = Exporter(endpoint, key, resource={"service": "cross-language"}, compression="gzip")
    sink, close = otel_sink(endpoint, key, script["environment"]) if mode == "otel" else (exporter, lambda: None)
    runner = ToolRunner(
        agent=script["agent"], release=script["release"], environment=script["environment"],
        tools=scripted_tools(script), sink=sink,
        ids=ids, clock=lambda: now, random=lambda: script["random"], sleep=lambda ms: None,
    )  # fmt: skip
    with runner.run() as run:
        for turn in script["turns"]:
            run.model_turn([f"{prefix}{c['call_id']}" for c in turn])
            for c in turn:
                if not c.get("unanswered"):
                    run.call(c["tool"], c["args"], call_id=f"{prefix}{c['call_id']}")
    close()
    exporter.shutdown(timeout_ms=20_000)
    stats = exporter.stats()
    if stats.sent != stats.produced:
        raise SystemExit(f"not everything was delivered: {stats}")
    print(run.run_id)


if __name__ == "__main__":
    main(*sys.argv[1:3], float(sys.argv[3]), *sys.argv[4:6])
