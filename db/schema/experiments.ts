import { index, int, primaryKey, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import type { ExperimentState } from "@/lib/contracts/experiments";
import { projects } from "./projects";

/**
 * Wording experiments (docs/experiments.md): per project, one code (optionally one tool), its
 * variants with their texts and traffic split (JSON, lib/contracts/experiments.ts validates them),
 * the guard bounds (JSON), and the state. Results are never stored here: they are counted from the
 * stored tool errors and their told steps on every read, so they cannot drift from the records.
 */
export const experiments = table(
  "experiments",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id),
    id: text("id").notNull(),
    code: text("code").notNull(),
    /** Only this tool's errors; null for the code on every tool. */
    tool: text("tool"),
    variants: text("variants").notNull(),
    guards: text("guards").notNull(),
    state: text("state").$type<ExperimentState>().notNull(),
    /** The promoted variant (stopped_winner). */
    winner: text("winner"),
    stopReason: text("stop_reason"),
    createdAt: int("created_at").notNull(),
    startedAt: int("started_at"),
    stoppedAt: int("stopped_at"),
    updatedAt: int("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.id] }), index("experiments_project_state_idx").on(t.projectId, t.state)],
);

export const experimentsPg = pgTableOf(experiments);
