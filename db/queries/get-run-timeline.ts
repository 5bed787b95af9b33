import type { AttemptTuple, CallError, RunRecordView, RunTimeline, TimelineCall } from "@/lib/contracts/runs";
import type { TimelineToldStep, ToldStep } from "@/lib/contracts/told";
import type { Store, Tx } from "../client";
import { ruleCodedSpansOfRun } from "../classify/code-sources";
import { prepared } from "../store/sqlite-prepared";

/** A span's columns in SPANS_SQL's order. */
type SpanTuple = [
  string, string, string, number | null, number, number, string | null, string | null, string | null, number | null, number | null, number | null,
  string | null, string | null, string | null, number, number,
];

// Keyset pagination in start order: the run's rows after the cursor, sorted, cut at the page. The
// bounds on started_at (the partition key) spare PostgreSQL the days before the cursor and outside
// the run. A missing sub-millisecond part sorts first on both engines (PostgreSQL would put NULL
// last), so a cursor means the same position on either.
const SPANS_SQL = `SELECT call_id, tool, span_id, attempt, started_at, ended_at, outcome, code, error_class, retryable,
    retry_after_ms, backoff_ms, decision, message, trace_id, coalesce(started_sub_ns, -1) AS sub_ns, pk
  FROM tool_call_spans
  WHERE project_id = ? AND run_id = ? AND started_at >= ? AND started_at <= ? AND (started_at, coalesce(started_sub_ns, -1), pk) > (?, ?, ?)
  ORDER BY started_at, coalesce(started_sub_ns, -1), pk LIMIT ?`;

/** The times a run's spans started and its final errors occurred within, inclusive. */
interface RunSpan {
  from: number;
  to: number;
  /** The run's attempts by its counters, when read. */
  attempts: number | null;
}

const ANY_TIME: RunSpan = { from: -Number.MAX_SAFE_INTEGER, to: Number.MAX_SAFE_INTEGER, attempts: null };

/**
 * On PostgreSQL, the run's time span from its counters: every span of the run started and every final
 * error occurred between its `first_started_at` and `last_ended_at` (a span never ends before it
 * starts), so the reads bounded by them touch only the daily partitions of those days. Unbounded,
 * each read opened all of them (a week, the days ahead and the default: 24 at 10M spans), and
 * planning one cost a connection that had not yet read them ~16–20 ms, where one partition costs
 * under 1 ms. Without a counters row (none kept yet, or expired), the reads are not bounded. SQLite
 * has no partitions, and a time range there could turn its planner to a time index.
 */
async function runSpanOf(db: Store | Tx, projectId: string, runId: string): Promise<RunSpan> {
  if (db.dialect === "sqlite") return ANY_TIME;
  const row = await db.get<{ from: number; to: number; attempts: number }>(
    `SELECT first_started_at AS "from", last_ended_at AS "to", attempts FROM run_stats WHERE project_id = ? AND run_id = ?`,
    [projectId, runId],
  );
  return row ? { from: Number(row.from), to: Number(row.to), attempts: Number(row.attempts) } : ANY_TIME;
}

/** ` AND <column> within the run's span` on PostgreSQL; nothing on SQLite (see runSpanOf). */
function withinSpan(db: Store | Tx, column: string, span: RunSpan): { sql: string; args: number[] } {
  return db.dialect === "postgres" ? { sql: ` AND ${column} >= ? AND ${column} <= ?`, args: [span.from, span.to] } : { sql: "", args: [] };
}

interface SpanObject {
  call_id: string;
  tool: string;
  span_id: string;
  attempt: number | null;
  started_at: number;
  ended_at: number;
  outcome: string | null;
  code: string | null;
  error_class: string | null;
  retryable: number | null;
  retry_after_ms: number | null;
  backoff_ms: number | null;
  decision: string | null;
  message: string | null;
  trace_id: string | null;
  sub_ns: number;
  pk: number;
}

/** Which page of a run to read: at most `limit` attempts after the `after` cursor (a previous page's `page.next`). */
export interface RunPageRequest {
  limit: number;
  after?: string;
}

// Before every span: the first page's cursor.
const START: [number, number, number] = [-Number.MAX_SAFE_INTEGER, -2, -Number.MAX_SAFE_INTEGER];

const cursorOf = (s: SpanTuple) => `${s[4]}.${s[15]}.${s[16]}`;

function parseCursor(after: string | undefined): [number, number, number] {
  if (after === undefined) return START;
  const [at, sub, pk] = after.split(".").map(Number);
  return [at ?? 0, sub ?? 0, pk ?? 0];
}

/**
 * A page of a run's spans as tuples, one more than asked for (which says whether a next page
 * exists). SQLite hands them over as arrays straight from its statement: for a run of 12,000
 * attempts that takes half the time of building row objects. The statement is this module's own
 * text, so its raw mode changes no other query's rows.
 */
async function readSpans(db: Store | Tx, projectId: string, runId: string, page: RunPageRequest, span: RunSpan): Promise<SpanTuple[]> {
  const [at, sub, pk] = parseCursor(page.after);
  const params = [projectId, runId, Math.max(at, span.from), span.to, at, sub, pk, page.limit + 1];
  if (db.dialect === "sqlite") return prepared<SpanTuple>(db.sqlite, SPANS_SQL).raw(true).all(...params) as unknown as SpanTuple[];
  const rows = await db.all<SpanObject>(SPANS_SQL, params);
  return rows.map((r) => [
    r.call_id, r.tool, r.span_id, r.attempt, Number(r.started_at), Number(r.ended_at), r.outcome, r.code, r.error_class, r.retryable, r.retry_after_ms,
    r.backoff_ms, r.decision, r.message, r.trace_id, Number(r.sub_ns), Number(r.pk),
  ]);
}

/**
 * The call (by key) of every attempt of the run, in one read of the (project, run) index: the run's
 * totals, and which final errors belong to a call with attempts. One statement per question (a
 * UNION of spans and errors counted in SQL) took SQLite 1.7 s for a 10,000-span run at 10M spans
 * with bound parameters, where the same text with literals took 6 ms.
 */
async function spanCallKeys(db: Store | Tx, projectId: string, runId: string, span: RunSpan): Promise<string[]> {
  const bound = withinSpan(db, "started_at", span);
  const rows = await db.all<{ call_id: string; tool: string }>(`SELECT call_id, tool FROM tool_call_spans WHERE project_id = ? AND run_id = ?${bound.sql}`, [
    projectId, runId, ...bound.args,
  ]);
  return rows.map((r) => callKey(r.call_id, r.tool));
}

interface ErrorRow {
  pk: number;
  call_id: string;
  tool: string;
  code: string | null;
  error_class: string | null;
  retryable: number | null;
  attempts: number | null;
  decision: string | null;
  told: string | null;
  occurred_at: number;
  source: string;
  derived: string | null;
}

interface RunRow {
  agent: string | null;
  release: string | null;
  service: string | null;
  environment: string | null;
  sdk_name: string | null;
  sdk_version: string | null;
  started_at: number | null;
  ended_at: number | null;
  state: string;
  deadline_at: number | null;
  max_tool_attempts: number | null;
  error: string | null;
  unanswered_tool_uses: number | null;
  trace_id: string | null;
  span_id: string | null;
}

const toRunView = (r: RunRow): RunRecordView => ({
  agent: r.agent,
  release: r.release,
  service: r.service,
  environment: r.environment,
  sdkName: r.sdk_name,
  sdkVersion: r.sdk_version,
  startedAt: r.started_at,
  endedAt: r.ended_at,
  state: r.state,
  deadlineAt: r.deadline_at,
  maxToolAttempts: r.max_tool_attempts,
  error: r.error,
  unansweredToolUses: r.unanswered_tool_uses,
  traceId: r.trace_id,
  spanId: r.span_id,
});

const bool = (v: number | null) => (v === null ? null : v !== 0);
// A call id is only unique within a tool as far as Faultline can trust the client.
const callKey = (callId: string, tool: string) => `${tool}\u0000${callId}`;

interface ToldRow {
  call_id: string;
  tool: string;
  code: string;
  step: ToldStep;
  next_call_id: string | null;
  next_tool: string | null;
  calls: number;
  occurred_at: number;
  event_id: string;
}

const toToldStep = (r: ToldRow): TimelineToldStep => ({
  callId: r.call_id,
  tool: r.tool,
  code: r.code,
  step: r.step,
  nextCallId: r.next_call_id,
  nextTool: r.next_tool,
  callsUntilRecovery: r.step === "recovered" || r.step === "replaced" ? Number(r.calls) : null,
});

/**
 * One page of a run in five indexed reads: its spans by (project, run), sorted by start, after the
 * page's cursor; its final tool errors by (project, run), its record, the next steps of its surfaced
 * errors and the rules that coded its failures; the errors, told steps and rule codes of the page's
 * calls are kept. A run of more than one page costs one more read on its first page (its totals) and
 * on its last (which errors have no attempts). Null when none of the first three exists.
 */
export async function getRunTimeline(db: Store | Tx, projectId: string, runId: string, page: RunPageRequest): Promise<RunTimeline | null> {
  const span = await runSpanOf(db, projectId, runId);
  const errorTimes = withinSpan(db, "occurred_at", span);
  // The first page of a run its counters say is longer than a page counts the run: its keys are
  // read beside the page's reads rather than after them.
  const early = page.after === undefined && span.attempts !== null && span.attempts > page.limit ? spanCallKeys(db, projectId, runId, span) : null;
  // Awaited below; handled here too, so that it cannot go unhandled when a read beside it fails first.
  early?.catch(() => undefined);
  const [read, unsortedErrors, run, told, codedBy] = await Promise.all([
    readSpans(db, projectId, runId, page, span),
    // Sorted here, not in SQL: an ORDER BY occurred_at makes SQLite pick the (project, occurred_at)
    // index and scan every error of the project instead of the run's few.
    db.all<ErrorRow>(
      `SELECT pk, call_id, tool, code, error_class, retryable, attempts, decision, told, occurred_at, source, derived
       FROM tool_errors WHERE project_id = ? AND run_id = ?${errorTimes.sql}`,
      [projectId, runId, ...errorTimes.args],
    ),
    db.get<RunRow>(
      `SELECT agent, release, service, environment, sdk_name, sdk_version, started_at, ended_at, state,
         deadline_at, max_tool_attempts, error, unanswered_tool_uses, trace_id, span_id
       FROM runs WHERE project_id = ? AND run_id = ?`,
      [projectId, runId],
    ),
    db.all<ToldRow>(
      "SELECT call_id, tool, code, step, next_call_id, next_tool, calls, occurred_at, event_id FROM told_steps WHERE project_id = ? AND run_id = ?",
      [projectId, runId],
    ),
    ruleCodedSpansOfRun(db, projectId, runId),
  ]);
  const errors = unsortedErrors.sort((a, b) => a.occurred_at - b.occurred_at || a.pk - b.pk);
  if (read.length === 0 && errors.length === 0 && run === undefined) return null;
  const more = read.length > page.limit;
  const spans = more ? read.slice(0, page.limit) : read;
  const first = page.after === undefined;

  const strings: string[] = [];
  const stringIndex = new Map<string, number>();
  const intern = (v: string | null): number | null => {
    if (v === null) return null;
    let i = stringIndex.get(v);
    if (i === undefined) {
      i = strings.push(v) - 1;
      stringIndex.set(v, i);
    }
    return i;
  };
  // Spans come ordered by start, so the first one is the earliest.
  const t0 = spans[0]?.[4] ?? 0;
  const calls = new Map<string, TimelineCall>();
  // Trace ids join the dictionary after the other values, so those keep their indexes.
  const traced: [AttemptTuple, string][] = [];
  for (const s of spans) {
    const key = callKey(s[0], s[1]);
    let call = calls.get(key);
    if (!call) {
      call = { callId: s[0], tool: s[1], attempts: [], error: null };
      calls.set(key, call);
    }
    const tuple: AttemptTuple = [s[2], s[3], s[4] - t0, s[5] - t0, intern(s[6]), intern(s[7]), intern(s[8]), bool(s[9]), s[10], s[11], intern(s[12]), s[13], null];
    if (s[14] !== null) traced.push([tuple, s[14]]);
    call.attempts.push(tuple);
  }
  for (const [tuple, traceId] of traced) tuple[12] = intern(traceId);
  const paged = more || !first;
  // A longer run is counted on its first page; its last page also holds the calls known only from a final error.
  const earlyKeys = early ? await early : null;
  const runKeys = paged && (first || !more) ? (earlyKeys ?? (await spanCallKeys(db, projectId, runId, span))) : null;
  const withSpans = !more && runKeys ? new Set(runKeys) : null;
  for (const e of errors) {
    const key = callKey(e.call_id, e.tool);
    let call = calls.get(key);
    if (!call) {
      if (more || withSpans?.has(key)) continue;
      call = { callId: e.call_id, tool: e.tool, attempts: [], error: null };
      calls.set(key, call);
    }
    // Rows come in occurrence order, so the last one wins: the call's final word.
    const error: CallError = {
      code: e.code,
      errorClass: e.error_class,
      retryable: bool(e.retryable),
      attempts: e.attempts,
      decision: e.decision,
      told: e.told,
      occurredAt: e.occurred_at,
      source: e.source,
      derived: e.derived ? e.derived.split(",") : [],
    };
    call.error = error;
  }
  const toldSteps = told
    .filter((t) => calls.has(callKey(t.call_id, t.tool)))
    .sort((a, b) => a.occurred_at - b.occurred_at || (a.event_id < b.event_id ? -1 : 1))
    .map(toToldStep);
  let pageCodedBy = codedBy;
  if (paged) {
    const ids = new Set(spans.map((s) => s[2]));
    pageCodedBy = Object.fromEntries(Object.entries(codedBy).filter(([spanId]) => ids.has(spanId)));
  }
  // A run that fits one page counts itself; a longer one is counted on its first page.
  let totals: { attempts: number; calls: number } | null = null;
  if (!paged) totals = { attempts: spans.length, calls: calls.size };
  else if (first && runKeys) {
    const keys = new Set(runKeys);
    for (const e of errors) keys.add(callKey(e.call_id, e.tool));
    totals = { attempts: runKeys.length, calls: keys.size };
  }
  const last = spans[spans.length - 1];
  return {
    runId, t0, strings, run: run ? toRunView(run) : null, calls: [...calls.values()], toldSteps, codedBy: pageCodedBy,
    page: { next: more && last ? cursorOf(last) : null, totalAttempts: totals?.attempts ?? null, totalCalls: totals?.calls ?? null },
  };
}
