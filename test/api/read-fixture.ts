import type { Store } from "@/db/client";
import { emptyRowBatch, type SpanRow } from "@/lib/ingest/rows";
import { writeRows } from "@/db/ingest/write-rows";
import { createProject } from "@/db/keys";
import { afterAll, beforeAll } from "vitest";
import { openProject, type ProjectServer } from "../helpers/project";

/** Hour-aligned start of the seeded window; the window is [H, H + 3 h). */
export const H = Date.UTC(2026, 0, 10, 0, 0, 0);
export const MIN = 60_000;
export const HOUR = 3_600_000;
export const WINDOW = `from=${H}&to=${H + 3 * HOUR}`;
export const SCRIPT_TOOL = "<script>alert(1)</script>";
export const MARKUP_CODE = "<b>bold</b>";
export const FORMULA_TOOL = "=SUM(1,2)";

const base: SpanRow = {
  spanId: "", traceId: null, parentSpanId: null, startedSubNs: null, runId: "", callId: "", tool: "", toolVersion: null, release: "r1",
  service: "svc-a", environment: "prod", sdkName: "faultline-runtime", sdkVersion: "0.1.0", attempt: 1, startedAt: 0,
  endedAt: 0, outcome: "ok", code: null, errorClass: null, retryable: null, retryAfterMs: null, backoffMs: null,
  decision: null, permitted: true, abandoned: false, message: null, derived: null, argsHash: null, afterError: null, source: "native",
};

const fail = (code: string, errorClass: string, retryable: boolean, extra: Partial<SpanRow> = {}): Partial<SpanRow> => ({
  outcome: "failed", code, errorClass, retryable, ...extra,
});

/**
 * Thirteen attempts in the window plus one outside it. The expected numbers in the read tests are
 * hand-computed from this list; see the comments there.
 */
export const FIXTURE_SPANS: Partial<SpanRow>[] = [
  // cancel_booking, r1/svc-a: a retried failure (asked 2 s, waited 30 s) then ok; a declined call.
  { runId: "run-1", callId: "c1", tool: "cancel_booking", startedAt: H + 10 * MIN, ...fail("upstream_unavailable", "ToolFailure", true, { retryAfterMs: 2000, backoffMs: 30_000, decision: "retried" }) },
  { runId: "run-1", callId: "c1", tool: "cancel_booking", attempt: 2, startedAt: H + 11 * MIN },
  { runId: "run-1", callId: "c2", tool: "cancel_booking", startedAt: H + 20 * MIN, outcome: "declined", code: "booking_not_cancellable", errorClass: "ToolRefusal", retryable: false, decision: "delivered" },
  // cancel_booking, r2/svc-b: a refused call; a call that failed closed on a 1 h retry_after.
  { runId: "run-2", callId: "c3", tool: "cancel_booking", release: "r2", service: "svc-b", startedAt: H + HOUR + 5 * MIN, outcome: "refused", code: "not_permitted", errorClass: "ToolNotPermittedError", retryable: false, decision: "surfaced", permitted: false },
  { runId: "run-2", callId: "c4", tool: "cancel_booking", release: "r2", service: "svc-b", startedAt: H + HOUR + 10 * MIN, ...fail("upstream_unavailable", "ToolFailure", true, { retryAfterMs: 3_600_000, decision: "failed_closed" }) },
  // The markup tool, r1/svc-a: three attempts (two failures with a markup code), and one ok call.
  { runId: "run-3", callId: "c5", tool: SCRIPT_TOOL, startedAt: H + 2 * HOUR + 1 * MIN, ...fail(MARKUP_CODE, "ToolFailure", true, { retryAfterMs: 1000, backoffMs: 1000, decision: "retried" }) },
  { runId: "run-3", callId: "c5", tool: SCRIPT_TOOL, attempt: 2, startedAt: H + 2 * HOUR + 2 * MIN, ...fail(MARKUP_CODE, "ToolFailure", true, { retryAfterMs: 1000, backoffMs: 5000, decision: "retried" }) },
  { runId: "run-3", callId: "c5", tool: SCRIPT_TOOL, attempt: 3, startedAt: H + 2 * HOUR + 3 * MIN },
  { runId: "run-3", callId: "c6", tool: SCRIPT_TOOL, startedAt: H + 2 * HOUR + 10 * MIN },
  // lookup, r2/svc-b in staging: two ok calls and one timed-out call whose code also means ToolFailure elsewhere.
  { runId: "run-4", callId: "c7", tool: "lookup", release: "r2", service: "svc-b", environment: "staging", startedAt: H + 30 * MIN },
  { runId: "run-4", callId: "c8", tool: "lookup", release: "r2", service: "svc-b", environment: "staging", startedAt: H + HOUR + 30 * MIN },
  { runId: "run-4", callId: "c9", tool: "lookup", release: "r2", service: "svc-b", environment: "staging", startedAt: H + 2 * HOUR + 30 * MIN, outcome: "timed_out", code: "upstream_unavailable", errorClass: "ToolTimedOutError", retryable: true, decision: "surfaced" },
  // A tool whose name is a spreadsheet formula (CSV injection guard).
  { runId: "run-5", callId: "c10", tool: FORMULA_TOOL, startedAt: H + 2 * HOUR + 40 * MIN },
  // Outside the window: must not count.
  { runId: "run-6", callId: "c11", tool: "cancel_booking", startedAt: H + 5 * HOUR, ...fail("upstream_unavailable", "ToolFailure", true) },
];

/** The empty project that `seedFixture` creates next to `project`. */
export const emptyProjectOf = (project: string) => `${project}-empty`;

/** Seeds the fixture into `project` and creates an empty project beside it (`emptyProjectOf`). */
export async function seedFixture(store: Store, project: string): Promise<void> {
  const batch = emptyRowBatch();
  FIXTURE_SPANS.forEach((s, i) => {
    const row: SpanRow = { ...base, ...s, spanId: `span-${i}`, endedAt: (s.startedAt ?? 0) + 100 };
    batch.spans.push({ index: i, row });
  });
  await writeRows(store, project, batch);
  await createProject(store, emptyProjectOf(project), "Empty project");
}

/**
 * Gives the calling test file its own project on the shared server, seeded with the fixture, and a
 * GET helper answering { status, body } for that project (a path that names a project keeps it).
 */
export function useFixtureServer() {
  let server: ProjectServer | undefined;
  beforeAll(async () => {
    server = await openProject({ seed: seedFixture });
  });
  afterAll(() => server?.stop());
  return {
    server: () => server!,
    get: async (path: string) => {
      const res = await fetch(server!.at(path));
      return { status: res.status, body: await res.json() };
    },
  };
}
