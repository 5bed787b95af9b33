import type { RowBatch } from "@/lib/ingest/rows";
import type { ToldRunState, ToldStep } from "@/lib/contracts/told";
import { toldShape } from "@/lib/drift/told-shape";
import { classifyRun, type RunCall, type SurfacedError } from "@/lib/told/next-step";
import { isSurfaced, toldRelease } from "@/lib/told/surfaced";
import type { RollupRow } from "../rollups/define-rollup";
import type { toldStepCountsRollup } from "../schema/told-step-counts";
import type { WrittenFlags } from "./tally";

/** A `told_steps` row as stored (snake_case, as both engines return it). */
export interface StoredStep {
  event_id: string;
  run_id: string;
  call_id: string;
  tool: string;
  code: string;
  release: string;
  shape: string;
  step: ToldStep;
  run_state: ToldRunState;
  calls: number;
  next_call_id: string | null;
  next_tool: string | null;
  next_outcome: string | null;
  next_code: string | null;
  occurred_at: number;
}

/** One stored attempt of a run being classified. */
export interface SpanFact {
  run_id: string;
  call_id: string;
  tool: string;
  attempt: number | null;
  started_at: number;
  ended_at: number;
  outcome: string | null;
  code: string | null;
  args_hash: string | null;
  after_error: string | null;
}

/** One stored final error (with a told text) of a run being classified. */
export interface ErrorFact {
  event_id: string;
  run_id: string;
  call_id: string;
  tool: string;
  tool_version: string | null;
  release: string | null;
  code: string | null;
  decision: string | null;
  told: string | null;
  occurred_at: number;
}

/** A run being classified: its record's state and end, when the record arrived. */
export interface RunFact {
  run_id: string;
  state: string;
  ended_at: number | null;
}

type CountRow = RollupRow<typeof toldStepCountsRollup>;

/** What one batch changes: rows to write (new or reclassified) and the count deltas that keep the rollup equal to them. */
export interface ToldPlan {
  upserts: StoredStep[];
  deltas: CountRow[];
}

const ENDED_STATES = new Set(["completed", "failed", "cancelled"]);

// Agents tell the model the same few texts over and over: their shapes are kept, up to a bound.
const SHAPE_CACHE_MAX = 4096;
const shapes = new Map<string, string>();

/** The told text's shape (lib/drift/told-shape.ts), from a bounded cache of recent texts. */
function shapeOf(told: string, code: string | null): string {
  const key = `${code ?? ""}\u0000${told}`;
  let shape = shapes.get(key);
  if (shape === undefined) {
    if (shapes.size >= SHAPE_CACHE_MAX) shapes.clear();
    shape = toldShape(told, code);
    shapes.set(key, shape);
  }
  return shape;
}

/** Every run a batch wrote a row of, sorted (PostgreSQL takes their locks in this order). */
export function touchedRuns(batch: RowBatch, written: WrittenFlags): string[] {
  const runs = new Set<string>();
  batch.spans.forEach((s, i) => written.spans[i] && runs.add(s.row.runId));
  batch.toolErrors.forEach((e, i) => written.toolErrors[i] && runs.add(e.row.runId));
  batch.runs.forEach((r, i) => written.runs[i] && runs.add(r.row.runId));
  return [...runs].sort();
}

/** Runs that got a new surfaced error in this batch: they need classifying even without stored steps. */
export function runsWithNewSurfacedErrors(batch: RowBatch, written: WrittenFlags): Set<string> {
  const runs = new Set<string>();
  batch.toolErrors.forEach((e, i) => written.toolErrors[i] && isSurfaced(e.row.decision, e.row.told) && runs.add(e.row.runId));
  return runs;
}

/** A run's calls from its attempts: first start, the last attempt's outcome and code, any hash and link. */
function callsOf(spans: readonly SpanFact[]): RunCall[] {
  const byKey = new Map<string, { call: RunCall; last: SpanFact }>();
  for (const s of spans) {
    const key = `${s.tool}\u0000${s.call_id}`;
    const e = byKey.get(key);
    if (!e) {
      byKey.set(key, {
        call: { callId: s.call_id, tool: s.tool, startedAt: s.started_at, outcome: s.outcome, code: s.code, argsHash: s.args_hash, afterError: s.after_error },
        last: s,
      });
      continue;
    }
    e.call.startedAt = Math.min(e.call.startedAt, s.started_at);
    e.call.argsHash ??= s.args_hash;
    e.call.afterError ??= s.after_error;
    const later = (s.attempt ?? 0) - (e.last.attempt ?? 0) || s.ended_at - e.last.ended_at;
    if (later > 0) {
      e.last = s;
      e.call.outcome = s.outcome;
      e.call.code = s.code;
    }
  }
  return [...byKey.values()].map((e) => e.call);
}

const countKey = (r: StoredStep) => [r.tool, r.code, r.release, r.shape, r.step, r.run_state, r.calls].join("\u0000");

function countRow(projectId: string, r: StoredStep, errors: number): CountRow {
  return {
    projectId, tool: r.tool, code: r.code, release: r.release, shape: r.shape, step: r.step, runState: r.run_state, calls: r.calls,
    errors, firstSeen: r.occurred_at, lastSeen: r.occurred_at,
  };
}

const sameRow = (a: StoredStep, b: StoredStep) =>
  countKey(a) === countKey(b) && a.next_call_id === b.next_call_id && a.next_tool === b.next_tool && a.next_outcome === b.next_outcome && a.next_code === b.next_code;

/**
 * Reclassifies every surfaced error of the given runs from their stored rows and diffs the result
 * with the stored steps: a new error adds +1 to its key, a reclassified one moves (−1 old key, +1
 * new key), an unchanged one changes nothing. Runs are classified whole, so the outcome does not
 * depend on how the run's records were split into batches.
 */
export function planToldSteps(projectId: string, stored: readonly StoredStep[], spans: readonly SpanFact[], errors: readonly ErrorFact[], runs: readonly RunFact[]): ToldPlan {
  const storedById = new Map(stored.map((s) => [s.event_id, s]));
  const spansByRun = new Map<string, SpanFact[]>();
  for (const s of spans) (spansByRun.get(s.run_id) ?? spansByRun.set(s.run_id, []).get(s.run_id)!).push(s);
  const errorsByRun = new Map<string, ErrorFact[]>();
  for (const e of errors) if (isSurfaced(e.decision, e.told)) (errorsByRun.get(e.run_id) ?? errorsByRun.set(e.run_id, []).get(e.run_id)!).push(e);
  const runById = new Map(runs.map((r) => [r.run_id, r]));
  const plan: ToldPlan = { upserts: [], deltas: [] };
  for (const [runId, runErrors] of errorsByRun) {
    runErrors.sort((a, b) => a.occurred_at - b.occurred_at || (a.event_id < b.event_id ? -1 : 1));
    const run = runById.get(runId);
    const end = { ended: run !== undefined && (run.ended_at !== null || ENDED_STATES.has(run.state)), state: run?.state ?? null };
    const surfaced: SurfacedError[] = runErrors.map((e) => ({ eventId: e.event_id, callId: e.call_id, tool: e.tool, code: e.code, occurredAt: e.occurred_at }));
    const steps = classifyRun(callsOf(spansByRun.get(runId) ?? []), surfaced, end);
    steps.forEach((s, i) => {
      const e = runErrors[i]!;
      const before = storedById.get(e.event_id);
      const after: StoredStep = {
        event_id: e.event_id,
        run_id: runId,
        call_id: e.call_id,
        tool: e.tool,
        code: e.code ?? "",
        // An error's release never changes: a stored row keeps its own. Its shape masks its code, so
        // it is kept while the code is, and taken again when a rule change re-coded the error.
        release: before?.release ?? toldRelease(e.release, e.tool_version),
        shape: before !== undefined && before.code === (e.code ?? "") ? before.shape : shapeOf(e.told ?? "", e.code),
        step: s.step,
        run_state: s.runState,
        calls: s.callsUntilRecovery ?? 0,
        next_call_id: s.next?.callId ?? null,
        next_tool: s.next?.tool ?? null,
        next_outcome: s.next?.outcome ?? null,
        next_code: s.next?.code ?? null,
        occurred_at: e.occurred_at,
      };
      if (before && sameRow(before, after)) return;
      plan.upserts.push(after);
      if (before && countKey(before) !== countKey(after)) plan.deltas.push(countRow(projectId, before, -1));
      if (!before || countKey(before) !== countKey(after)) plan.deltas.push(countRow(projectId, after, 1));
    });
  }
  plan.upserts.sort((a, b) => (a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0));
  return plan;
}
