import { experimentCreateSchema, experimentSchema, guardBoundsSchema, type Experiment, type ExperimentState } from "@/lib/contracts/experiments";
import { wordingVariantSchema } from "@/lib/contracts/wordings";
import { z } from "zod";
import type { Executor } from "../store/types";

interface ExperimentRow {
  project_id: string;
  id: string;
  code: string;
  tool: string | null;
  variants: string;
  guards: string;
  state: ExperimentState;
  winner: string | null;
  stop_reason: string | null;
  created_at: number;
  started_at: number | null;
  stopped_at: number | null;
}

const COLUMNS = "project_id, id, code, tool, variants, guards, state, winner, stop_reason, created_at, started_at, stopped_at";
const variantsSchema = z.array(wordingVariantSchema);

/** A validated create body. */
export type ExperimentDraft = z.output<typeof experimentCreateSchema>;

function toExperiment(r: ExperimentRow): Experiment {
  return experimentSchema.parse({
    id: r.id,
    project: r.project_id,
    code: r.code,
    tool: r.tool,
    state: r.state,
    variants: variantsSchema.parse(JSON.parse(r.variants)),
    guards: guardBoundsSchema.parse(JSON.parse(r.guards)),
    winner: r.winner,
    stopReason: r.stop_reason,
    createdAt: Number(r.created_at),
    startedAt: r.started_at === null ? null : Number(r.started_at),
    stoppedAt: r.stopped_at === null ? null : Number(r.stopped_at),
  });
}

/** The project's experiments, newest first (ties by id). */
export async function listExperiments(db: Executor, projectId: string): Promise<Experiment[]> {
  const rows = await db.all<ExperimentRow>(`SELECT ${COLUMNS} FROM experiments WHERE project_id = ? ORDER BY created_at DESC, id`, [projectId]);
  return rows.map(toExperiment);
}

/** One experiment, or null. */
export async function getExperiment(db: Executor, projectId: string, id: string): Promise<Experiment | null> {
  const row = await db.get<ExperimentRow>(`SELECT ${COLUMNS} FROM experiments WHERE project_id = ? AND id = ?`, [projectId, id]);
  return row ? toExperiment(row) : null;
}

/** The project's running experiments, oldest first: the wording set and the guard job read them. */
export async function listRunningExperiments(db: Executor, projectId?: string): Promise<Experiment[]> {
  const rows = projectId === undefined
    ? await db.all<ExperimentRow>(`SELECT ${COLUMNS} FROM experiments WHERE state = 'running' ORDER BY project_id, created_at, id`)
    : await db.all<ExperimentRow>(`SELECT ${COLUMNS} FROM experiments WHERE project_id = ? AND state = 'running' ORDER BY created_at, id`, [projectId]);
  return rows.map(toExperiment);
}

/** Inserts a draft; false when the project already has an experiment with this id. */
export async function insertExperiment(db: Executor, projectId: string, e: ExperimentDraft, now: number): Promise<boolean> {
  const r = await db.run(
    `INSERT INTO experiments (project_id, id, code, tool, variants, guards, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'draft', ?, ?)
     ON CONFLICT (project_id, id) DO NOTHING`,
    [projectId, e.id, e.code, e.tool ?? null, JSON.stringify(e.variants), JSON.stringify(e.guards), now, now],
  );
  return r > 0;
}

/** The fields a state change sets. */
export interface ExperimentStateChange {
  state: ExperimentState;
  winner?: string | null;
  stopReason?: string | null;
  startedAt?: number;
  stoppedAt?: number;
}

/** Moves an experiment from `from` to the change's state; false when it was no longer in `from` (a concurrent change won). */
export async function setExperimentState(db: Executor, projectId: string, id: string, from: ExperimentState, change: ExperimentStateChange, now: number): Promise<boolean> {
  const r = await db.run(
    `UPDATE experiments SET state = ?, winner = coalesce(?, winner), stop_reason = coalesce(?, stop_reason),
       started_at = coalesce(?, started_at), stopped_at = coalesce(?, stopped_at), updated_at = ?
     WHERE project_id = ? AND id = ? AND state = ?`,
    [change.state, change.winner ?? null, change.stopReason ?? null, change.startedAt ?? null, change.stoppedAt ?? null, now, projectId, id, from],
  );
  return r > 0;
}

/** The id of a running experiment of the project on `code` and `tool` (null: the code on every tool), if any. */
export async function runningExperimentOn(db: Executor, projectId: string, code: string, tool: string | null): Promise<string | null> {
  const row = await db.get<{ id: string }>(
    "SELECT id FROM experiments WHERE project_id = ? AND state = 'running' AND code = ? AND coalesce(tool, '') = ? ORDER BY id LIMIT 1",
    [projectId, code, tool ?? ""],
  );
  return row?.id ?? null;
}
