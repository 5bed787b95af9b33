import { int, primaryKey, table, text } from "./columns";
import { pgTableOf } from "./pg-table";

/**
 * Categorical accumulators of one code on one tool in one release: `basis` is `attempts` (spans),
 * `errors` (tool_errors) or `rules` (what a classification rule set on spans: shown, never judged by
 * drift, lib/drift/emitter-said.ts); `dim` is error_class, retryable, outcome, decision, retry_after (value =
 * delay in ms at two significant digits) or told (value = normalised told shape).
 */
export const driftCounts = table(
  "drift_counts",
  {
    projectId: text("project_id").notNull(),
    code: text("code").notNull(),
    tool: text("tool").notNull(),
    release: text("release").notNull(),
    basis: text("basis").notNull(),
    dim: text("dim").notNull(),
    value: text("value").notNull(),
    count: int("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.code, t.tool, t.release, t.basis, t.dim, t.value] })],
);

export const driftCountsPg = pgTableOf(driftCounts);
