import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { decodeJsonRequest } from "@/lib/ingest/otlp/decode";
import { ingestOtlp } from "../../helpers/ingest";
import { DIALECTS, openTestStore } from "../../helpers/stores";
import { SPANS } from "@/test/helpers/spans-read";
import { ns, request, s, span, T0 } from "./fixtures";

let store: Store;
const all = (sql: string) => store.all<Record<string, unknown>>(sql);
const ingest = (spans: unknown[]) => ingestOtlp(store, "default", decodeJsonRequest(request(spans)));

const TRACE = "5b8efff798038103d269b633813fc60c";
const agent = span({
  spanId: "aaaaaaaaaaaaaaaa", parentSpanId: "", name: "invoke_agent planner", endTimeUnixNano: ns(T0 + 5000),
  attributes: [s("gen_ai.operation.name", "invoke_agent"), s("gen_ai.agent.name", "planner")], status: { code: 2, message: "token=abc123 gave up" },
});
const tool = (spanId: string, start: number) =>
  span({ spanId, parentSpanId: "aaaaaaaaaaaaaaaa", startTimeUnixNano: ns(T0 + start), endTimeUnixNano: ns(T0 + start + 100) });
const RUN_COLUMNS = "project_id, record_id, run_id, agent, release, service, environment, sdk_name, sdk_version, started_at, ended_at, state, deadline_at, max_tool_attempts, error, source";

describe.each(DIALECTS)("OTLP ingest: agent spans become run records (%s)", (dialect) => {
  beforeEach(async () => {
    store = await openTestStore(dialect);
    await ensureDefaultProject(store);
  });
  afterEach(async () => {
    await store.close();
  });

  it("tool spans in one request and their agent span in a later one end up as one run with its record", async () => {
    expect(await ingest([tool("0000000000000001", 100), tool("0000000000000002", 300), span({ spanId: "000000000000000c", name: "chat", attributes: [s("gen_ai.operation.name", "chat")] })]))
      .toEqual({ accepted: 2, duplicates: 0, rejected: [] });
    expect(await all("SELECT count(*) AS n FROM runs")).toEqual([{ n: 0 }]);
    expect(await ingest([agent])).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    expect(await all(`SELECT ${RUN_COLUMNS} FROM runs`)).toEqual([
      {
        project_id: "default", record_id: `aaaaaaaaaaaaaaaa@failed:${T0 + 5000}`, run_id: TRACE, agent: "planner", release: "2026.11.3",
        service: "support-agent", environment: null, sdk_name: "my.agent.runtime", sdk_version: "1.4.0", started_at: T0, ended_at: T0 + 5000,
        state: "failed", deadline_at: null, max_tool_attempts: null, error: "token=[redacted:secret_value] gave up", source: "otlp",
      },
    ]);
    expect(await all(`SELECT span_id, run_id, service FROM ${SPANS} ORDER BY span_id`)).toEqual([
      { span_id: "0000000000000001", run_id: TRACE, service: "support-agent" },
      { span_id: "0000000000000002", run_id: TRACE, service: "support-agent" },
    ]);
    expect(await all("SELECT run_id, attempts, first_started_at, last_ended_at FROM run_stats")).toEqual([
      { run_id: TRACE, attempts: 2, first_started_at: T0, last_ended_at: T0 + 5000 },
    ]);
    // A re-sent export of the agent span is a duplicate and changes nothing.
    expect(await ingest([agent])).toEqual({ accepted: 1, duplicates: 1, rejected: [] });
  });

  it("a later export of the same agent span that ended merges into the running record; an older one never undoes the end", async () => {
    const running = { ...agent, endTimeUnixNano: "0", status: undefined };
    await ingest([running]);
    expect(await all("SELECT state, started_at, ended_at FROM runs")).toEqual([{ state: "running", started_at: T0, ended_at: null }]);
    await ingest([agent]);
    await ingest([running]);
    expect(await all("SELECT state, started_at, ended_at, agent FROM runs")).toEqual([{ state: "failed", started_at: T0, ended_at: T0 + 5000, agent: "planner" }]);
  });
});
