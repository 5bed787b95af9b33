import { afterEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { toolErrorInsert } from "@/db/ingest/statements";
import { insertLegacySpans } from "../../helpers/legacy-spans";
import type { ToolErrorRow } from "@/lib/ingest/rows";
import { spanRow } from "../../helpers/rows";
import { upgradedStore } from "../../helpers/migrate-before";
import { DIALECTS } from "../../helpers/stores";

// The migration that adds `run_codes` fills it from the spans and final errors already stored, as
// ingest keeps it from then on: a database upgraded with failures in it filters its runs by code.

const T0 = Date.UTC(2026, 10, 20);

const spans = [
  spanRow({ spanId: "a", runId: "r1", callId: "c1", tool: "search", attempt: 1, startedAt: T0, endedAt: T0 + 40, outcome: "failed", code: "rate_limited" }),
  spanRow({ spanId: "b", runId: "r1", callId: "c1", tool: "search", attempt: 2, startedAt: T0 + 100, endedAt: T0 + 140, outcome: "failed", code: "rate_limited" }),
  spanRow({ spanId: "c", runId: "r1", callId: "c2", tool: "book", attempt: 1, startedAt: T0 + 200, endedAt: T0 + 240, outcome: "failed", code: "rate_limited" }),
  spanRow({ spanId: "d", runId: "r2", callId: "c3", tool: "search", attempt: 1, startedAt: T0 + 300, endedAt: T0 + 340 }),
];
const errors: ToolErrorRow[] = [
  {
    eventId: "e1", runId: "r1", callId: "c1", tool: "search", toolVersion: null, release: null, service: null, environment: null, code: "rate_limited",
    errorClass: "ToolFailure", retryable: true, attempts: 2, decision: "exhausted", told: "slow down", derived: null, occurredAt: T0 + 150, source: "native",
    experiment: null, variant: null,
  },
  {
    eventId: "e2", runId: "r2", callId: "c4", tool: "book", toolVersion: null, release: null, service: null, environment: null, code: "sold_out",
    errorClass: "ToolRefusal", retryable: false, attempts: 1, decision: "surfaced", told: "sold out", derived: null, occurredAt: T0 + 400, source: "native",
    experiment: null, variant: null,
  },
];

async function seed(store: Store): Promise<void> {
  await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'P', 0)");
  const context = { projectId: "p", receivedAt: T0 };
  await insertLegacySpans(store, context, spans);
  if (store.dialect === "sqlite") {
    for (const e of errors) await store.run(toolErrorInsert.sql, toolErrorInsert.bind(context, e));
  } else {
    await store.all(toolErrorInsert.pgSql, toolErrorInsert.columns(context, errors));
  }
}

describe.each(DIALECTS)("the run_codes migration (%s)", (dialect) => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it("counts every stored span and final error with a code per run, code and tool", async () => {
    const { store, drop } = await upgradedStore(dialect, "_run_codes", seed);
    cleanup = drop;
    try {
      const rows = await store.all(`SELECT project_id AS "projectId", code, run_id AS "runId", tool, count FROM run_codes ORDER BY code, run_id, tool`);
      expect(rows).toEqual([
        { projectId: "p", code: "rate_limited", runId: "r1", tool: "book", count: 1 },
        { projectId: "p", code: "rate_limited", runId: "r1", tool: "search", count: 3 },
        { projectId: "p", code: "sold_out", runId: "r2", tool: "book", count: 1 },
      ]);
    } finally {
      await store.close();
    }
  }, 60_000);
});
