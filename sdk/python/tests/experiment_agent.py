"""A booking agent on the Python package, driven line by line over stdin by test/api/python-experiments.test.ts.

``python experiment_agent.py <endpoint> <read key> <ingest key> <project> <epoch ms>``. Its clock is
virtual (advanced by the test), its wordings come from the real server through
:class:`faultline.RemoteWordings`, and its records go to the server through the package's exporter.
Each stdin line is one JSON command, answered by one JSON line on stdout:

- ``{"do": "refresh"}``: waits for a background request in flight, then asks the server now; answers
  the clock, the entries and any refresh errors so far.
- ``{"do": "tell", "run": id, "at": ms?}``: one run (starting at ``at`` when given) whose fare class B
  booking fails; a scripted model picks another fare more often when told the hinted wording.
  Answers the run's first ``tool_error`` record.
- ``{"do": "look", "at": ms?}``: what an error path does (``current()``), then waits for the background request it started.
- ``{"do": "export"}``: flushes the exporter; answers its counters. ``{"do": "quit"}`` ends.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from faultline import MemorySink, RemoteWordings, ToolFailure, ToolRunner, sequential_ids, tool
from faultline.exporter import Exporter
from faultline.records import FanOut


def main(endpoint: str, read_key: str, ingest_key: str, project: str, start: float) -> None:
    now = [start]
    errors: list[str] = []
    wordings = RemoteWordings(base_url=endpoint, project=project, api_key=read_key, ttl_ms=60_000, clock=lambda: now[0], on_error=lambda e: errors.append(str(e)))
    exporter = Exporter(endpoint, ingest_key, resource={"service": "py-booking-agent", "release": "2.0.0"})
    memory = MemorySink()

    @tool(name="book_flight")
    def book(fare: str) -> str:
        if fare == "B":
            raise ToolFailure("book_flight", "fare_class_unavailable", message="HTTP 422")
        return "BK1"

    runner = ToolRunner(agent="py-booking-agent", tools=[book], sink=FanOut([memory, exporter]), clock=lambda: now[0], ids=sequential_ids(), wordings=wordings)
    model = random.Random(11)

    def tell(run_id: str) -> dict[str, Any]:
        with runner.run(run_id=run_id) as run:
            first = run.call("book_flight", {"fare": "B"}, call_id=f"{run_id}-c1")
            now[0] += 50
            hinted = first.told is not None and "pick another" in first.told
            if model.random() < (0.8 if hinted else 0.3):
                run.call("book_flight", {"fare": "M"}, call_id=f"{run_id}-c2")
            now[0] += 50
        now[0] += 1_000
        return next(r for r in memory.of_type("tool_error") if r["run_id"] == run_id)

    for line in sys.stdin:
        command = json.loads(line)
        answer: dict[str, Any]
        if "at" in command:
            now[0] = command["at"]
        if command["do"] == "refresh":
            wordings.join()
            wordings.refresh()
            current = wordings.current()
            answer = {"now": now[0], "entries": len(current) if current else None, "errors": errors}
        elif command["do"] == "tell":
            answer = tell(command["run"])
        elif command["do"] == "look":
            wordings.current()
            answer = {"settled": wordings.join(), "errors": errors}
        elif command["do"] == "export":
            exporter.flush(timeout_ms=20_000)
            stats = exporter.stats()
            answer = {"produced": stats.produced, "sent": stats.sent, "dropped": stats.dropped_total}
        else:
            break
        print(json.dumps(answer), flush=True)
    exporter.shutdown(timeout_ms=20_000)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]))
