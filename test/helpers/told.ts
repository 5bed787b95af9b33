// Checks that the ingest-maintained told steps and counts equal what a one-shot classification of
// the stored raw rows gives, however the rows arrived (batch sizes, order, concurrency).
import type { Store } from "@/db/client";
import { planToldSteps, type ErrorFact, type RunFact, type SpanFact, type StoredStep } from "@/db/ingest/told-plan";
import { bytesToHex } from "@/db/schema/hex-bytes";

const STEP_FIELDS = ["event_id", "run_id", "call_id", "tool", "code", "release", "shape", "step", "run_state", "calls", "next_call_id", "next_tool", "next_outcome", "next_code", "occurred_at"] as const;

const byEvent = (a: { event_id: string }, b: { event_id: string }) => (a.event_id < b.event_id ? -1 : a.event_id > b.event_id ? 1 : 0);

/** The stored told steps of a project, numbers as numbers, sorted by event id. */
export async function storedSteps(store: Store, projectId: string): Promise<StoredStep[]> {
  const rows = await store.all<StoredStep>(`SELECT ${STEP_FIELDS.join(", ")} FROM told_steps WHERE project_id = ?`, [projectId]);
  return rows.map((r) => ({ ...r, calls: Number(r.calls), occurred_at: Number(r.occurred_at) })).sort(byEvent);
}

/** The told steps a classification of every stored raw row at once gives (nothing stored before). */
export async function oneShotSteps(store: Store, projectId: string): Promise<StoredStep[]> {
  const spans = (
    await store.all<Omit<SpanFact, "args_hash"> & { args_hash: Buffer | null }>(
      "SELECT run_id, call_id, tool, attempt, started_at, ended_at, outcome, code, args_hash, after_error FROM tool_call_spans WHERE project_id = ?",
      [projectId],
    )
  ).map((s): SpanFact => ({ ...s, args_hash: s.args_hash && bytesToHex(s.args_hash) }));
  const errors = await store.all<ErrorFact>(
    "SELECT event_id, run_id, call_id, tool, tool_version, release, code, decision, told, occurred_at FROM tool_errors WHERE project_id = ?",
    [projectId],
  );
  const runs = await store.all<RunFact>("SELECT run_id, state, ended_at FROM runs WHERE project_id = ?", [projectId]);
  // PostgreSQL's int8 columns arrive as numbers already; SQLite's too. Normalised anyway, as the ingest path reads them.
  const num = <T extends object>(r: T, keys: (keyof T)[]): T => {
    const out = { ...r } as Record<string, unknown>;
    for (const k of keys) if (out[k as string] !== null) out[k as string] = Number(out[k as string]);
    return out as T;
  };
  return planToldSteps(
    projectId,
    [],
    spans.map((s) => num(s, ["attempt", "started_at", "ended_at"])),
    errors.map((e) => num(e, ["occurred_at"])),
    runs.map((r) => num(r, ["ended_at"])),
  ).upserts.sort(byEvent);
}

const countKey = (r: { tool: string; code: string; release: string; shape: string; step: string; run_state: string; calls: number }) =>
  [r.tool, r.code, r.release, r.shape, r.step, r.run_state, r.calls].join(" | ");

/** told_step_counts as key → errors, zero keys left out (a key a reclassification emptied). */
export async function storedCounts(store: Store, projectId: string): Promise<Record<string, number>> {
  const rows = await store.all<{ tool: string; code: string; release: string; shape: string; step: string; run_state: string; calls: number; errors: number }>(
    "SELECT tool, code, release, shape, step, run_state, calls, errors FROM told_step_counts WHERE project_id = ?",
    [projectId],
  );
  const out: Record<string, number> = {};
  for (const r of rows) if (Number(r.errors) !== 0) out[countKey({ ...r, calls: Number(r.calls) })] = Number(r.errors);
  return out;
}

/** The counts the given steps add up to, as key → errors. */
export function countsOf(steps: readonly StoredStep[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of steps) {
    const k = countKey(s);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}
