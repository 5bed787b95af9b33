import { int, primaryKey, table, text } from "./columns";
import { pgTableOf } from "./pg-table";

/**
 * One row per tool call that carried a code: counts each call once and remembers whether a later
 * attempt of it succeeded, whichever order the attempts arrive in.
 */
export const driftCalls = table(
  "drift_calls",
  {
    projectId: text("project_id").notNull(),
    runId: text("run_id").notNull(),
    callId: text("call_id").notNull(),
    code: text("code").notNull(),
    tool: text("tool").notNull(),
    release: text("release").notNull(),
    /** The earliest attempt that carried the code (null when unknown), and when it started. */
    attempt: int("attempt"),
    startedAt: int("started_at").notNull(),
    recovered: int("recovered").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.runId, t.callId, t.code] })],
);

export const driftCallsPg = pgTableOf(driftCalls);
