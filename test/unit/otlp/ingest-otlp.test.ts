import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { decodeJsonRequest } from "@/lib/ingest/otlp/decode";
import { ingestOtlp } from "../../helpers/ingest";
import { ns, request, s, span, T0 } from "./fixtures";

let store: Store;
beforeEach(() => {
  store = openStore(path.join(mkdtempSync(path.join(tmpdir(), "faultline-otlp-")), "db.sqlite"));
  ensureDefaultProject(store);
});
const all = (sql: string) => store.sqlite.prepare(sql).all() as Record<string, unknown>[];
const ingest = (spans: unknown[]) => ingestOtlp(store, "default", decodeJsonRequest(request(spans)));

const TRACE = "5b8efff798038103d269b633813fc60c";
const agent = span({
  spanId: "aaaaaaaaaaaaaaaa", parentSpanId: "", name: "invoke_agent planner", endTimeUnixNano: ns(T0 + 5000),
  attributes: [s("gen_ai.operation.name", "invoke_agent"), s("gen_ai.agent.name", "planner")], status: { code: 2, message: "token=abc123 gave up" },
});
const tool = (spanId: string, start: number) =>
  span({ spanId, parentSpanId: "aaaaaaaaaaaaaaaa", startTimeUnixNano: ns(T0 + start), endTimeUnixNano: ns(T0 + start + 100) });
const RUN_COLUMNS = "project_id, record_id, run_id, agent, release, service, environment, sdk_name, sdk_version, started_at, ended_at, state, deadline_at, max_tool_attempts, error, source";

describe("OTLP ingest: agent spans become run records", () => {
  it("tool spans in one request and their agent span in a later one end up as one run with its record", () => {
    expect(ingest([tool("0000000000000001", 100), tool("0000000000000002", 300), span({ spanId: "000000000000000c", name: "chat", attributes: [s("gen_ai.operation.name", "chat")] })]))
      .toEqual({ accepted: 2, duplicates: 0, rejected: [] });
    expect(all("SELECT count(*) AS n FROM runs")).toEqual([{ n: 0 }]);
    expect(ingest([agent])).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    expect(all(`SELECT ${RUN_COLUMNS} FROM runs`)).toEqual([
      {
        project_id: "default", record_id: `aaaaaaaaaaaaaaaa@failed:${T0 + 5000}`, run_id: TRACE, agent: "planner", release: "2026.11.3",
        service: "support-agent", environment: null, sdk_name: "my.agent.runtime", sdk_version: "1.4.0", started_at: T0, ended_at: T0 + 5000,
        state: "failed", deadline_at: null, max_tool_attempts: null, error: "token=[redacted:secret_value] gave up", source: "otlp",
      },
    ]);
    expect(all("SELECT span_id, run_id, service FROM tool_call_spans ORDER BY span_id")).toEqual([
      { span_id: "0000000000000001", run_id: TRACE, service: "support-agent" },
      { span_id: "0000000000000002", run_id: TRACE, service: "support-agent" },
    ]);
    expect(all("SELECT run_id, attempts, first_started_at, last_ended_at FROM run_stats")).toEqual([
      { run_id: TRACE, attempts: 2, first_started_at: T0, last_ended_at: T0 + 5000 },
    ]);
    // A re-sent export of the agent span is a duplicate and changes nothing.
    expect(ingest([agent])).toEqual({ accepted: 1, duplicates: 1, rejected: [] });
  });

  it("a later export of the same agent span that ended merges into the running record; an older one never undoes the end", () => {
    const running = { ...agent, endTimeUnixNano: "0", status: undefined };
    ingest([running]);
    expect(all("SELECT state, started_at, ended_at FROM runs")).toEqual([{ state: "running", started_at: T0, ended_at: null }]);
    ingest([agent]);
    ingest([running]);
    expect(all("SELECT state, started_at, ended_at, agent FROM runs")).toEqual([{ state: "failed", started_at: T0, ended_at: T0 + 5000, agent: "planner" }]);
  });
});
