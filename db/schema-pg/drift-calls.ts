import { bigint, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/** PostgreSQL twin of db/schema/drift-calls.ts. */
export const driftCalls = pgTable(
  "drift_calls",
  {
    projectId: text("project_id").notNull(),
    runId: text("run_id").notNull(),
    callId: text("call_id").notNull(),
    code: text("code").notNull(),
    tool: text("tool").notNull(),
    release: text("release").notNull(),
    attempt: bigint("attempt", { mode: "number" }),
    startedAt: bigint("started_at", { mode: "number" }).notNull(),
    recovered: bigint("recovered", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ name: "drift_calls_pk", columns: [t.projectId, t.runId, t.callId, t.code] })],
);
