import type { Executor } from "../store/types";
import { driftSql } from "./statements";

/** How current a project's drift findings are: whether rows wait to be folded in, and when they last were. */
export interface DriftFreshness {
  /** No ingested span or error waits to be folded, no told count changed since, and the findings were computed since the last fold. */
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

/** Two `pk` range probes: cheap enough to answer on every drift read. */
export async function getDriftFreshness(db: Executor, projectId: string): Promise<DriftFreshness> {
  const sql = driftSql(db.dialect);
  const state = await db.get<StateRow>(sql.getState, { project: projectId });
  const backlog =
    (await db.get(sql.hasSpanAfter, { project: projectId, after: state?.span_watermark ?? 0 })) !== undefined ||
    (await db.get(sql.hasErrorAfter, { project: projectId, after: state?.error_watermark ?? 0 })) !== undefined ||
    (await db.get(sql.hasToldStale, { project: projectId })) !== undefined;
  const foldedAt = state && state.refreshed_at > 0 ? state.refreshed_at : null;
  return { upToDate: !backlog && state?.findings_computed_at != null, foldedAt };
}

/** Projects whose drift is not up to date (rows to fold, or findings never computed), for the start-up catch-up. */
export async function listProjectsBehindOnDrift(db: Executor): Promise<string[]> {
  const projects = await db.all<{ id: string }>("SELECT id FROM projects ORDER BY id");
  const behind: string[] = [];
  for (const p of projects) if (!(await getDriftFreshness(db, p.id)).upToDate) behind.push(p.id);
  return behind;
}
