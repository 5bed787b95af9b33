import type Database from "better-sqlite3";
import type { Store } from "../client";

/** How current a project's drift findings are: whether rows wait to be folded in, and when they last were. */
export interface DriftFreshness {
  /** No ingested span or error waits to be folded, and the findings were computed since the last fold. */
  upToDate: boolean;
  /** When rows were last folded in (epoch ms), or null when never. */
  foldedAt: number | null;
}

interface StateRow {
  span_watermark: number;
  error_watermark: number;
  refreshed_at: number;
  findings_computed_at: number | null;
}

const cache = new WeakMap<Database.Database, ReturnType<typeof prepare>>();

function prepare(sqlite: Database.Database) {
  return {
    state: sqlite.prepare<[string], StateRow>(
      "SELECT span_watermark, error_watermark, refreshed_at, findings_computed_at FROM drift_state WHERE project_id = ?",
    ),
    spanAfter: sqlite.prepare<[number, string], { pk: number }>("SELECT pk FROM tool_call_spans WHERE pk > ? AND project_id = ? LIMIT 1"),
    errorAfter: sqlite.prepare<[number, string], { pk: number }>("SELECT pk FROM tool_errors WHERE pk > ? AND project_id = ? LIMIT 1"),
    projects: sqlite.prepare<[], { id: string }>("SELECT id FROM projects ORDER BY id"),
  };
}

const statements = (sqlite: Database.Database) => {
  let st = cache.get(sqlite);
  if (!st) cache.set(sqlite, (st = prepare(sqlite)));
  return st;
};

/** Two rowid range probes: cheap enough to answer on every drift read. */
export function getDriftFreshness(store: Store, projectId: string): DriftFreshness {
  const st = statements(store.sqlite);
  const state = st.state.get(projectId);
  const backlog = st.spanAfter.get(state?.span_watermark ?? 0, projectId) !== undefined || st.errorAfter.get(state?.error_watermark ?? 0, projectId) !== undefined;
  const foldedAt = state && state.refreshed_at > 0 ? state.refreshed_at : null;
  return { upToDate: !backlog && state?.findings_computed_at != null, foldedAt };
}

/** Projects whose drift is not up to date (rows to fold, or findings never computed), for the start-up catch-up. */
export function listProjectsBehindOnDrift(store: Store): string[] {
  return statements(store.sqlite)
    .projects.all()
    .map((p) => p.id)
    .filter((id) => !getDriftFreshness(store, id).upToDate);
}
