"""The scripted agent of test/vectors/scripted-run.json through the Python package and its exporter.

Run by test/api/python-cross-language.test.ts (the TypeScript runtime runs the same script):
``python cross_language_agent.py <endpoint> <api key> <epoch ms> <id prefix>``. Prints the run id.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from faultline import ToolRunner
from faultline.exporter import Exporter
from faultline.records import IdKind
from scripted import scripted_tools  # this file runs as a script from tests/


def main(endpoint: str, key: str, now: float, prefix: str) -> None:
    script = json.loads((Path(__file__).resolve().parents[3] / "test/vectors/scripted-run.json").read_text(encoding="utf-8"))
    n = 0

    def ids(kind: IdKind) -> str:
        nonlocal n
        n += 1
        return f"{prefix}{kind}_{n}"

    exporter = Exporter(endpoint, key, resource={"service": "cross-language"}, compression="gzip")
    runner = ToolRunner(
        agent=script["agent"], release=script["release"], environment=script["environment"],
        tools=scripted_tools(script), sink=exporter,
        ids=ids, clock=lambda: now, random=lambda: script["random"], sleep=lambda ms: None,
    )  # fmt: skip
    with runner.run() as run:
        for turn in script["turns"]:
            run.model_turn([f"{prefix}{c['call_id']}" for c in turn])
            for c in turn:
                if not c.get("unanswered"):
                    run.call(c["tool"], c["args"], call_id=f"{prefix}{c['call_id']}")
    exporter.shutdown(timeout_ms=20_000)
    stats = exporter.stats()
    if stats.sent != stats.produced:
        raise SystemExit(f"not everything was delivered: {stats}")
    print(run.run_id)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4])
