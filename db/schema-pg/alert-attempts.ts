import { bigint, bigserial, index, pgTable, text } from "drizzle-orm/pg-core";
import { alertOutbox } from "./alert-outbox";

/** PostgreSQL twin of db/schema/alert-attempts.ts. */
export const alertAttempts = pgTable(
  "alert_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    outboxId: bigint("outbox_id", { mode: "number" })
      .notNull()
      .references(() => alertOutbox.id, { onDelete: "cascade" }),
    attemptedAt: bigint("attempted_at", { mode: "number" }).notNull(),
    httpStatus: bigint("http_status", { mode: "number" }),
    error: text("error"),
    durationMs: bigint("duration_ms", { mode: "number" }).notNull(),
  },
  (t) => [index("alert_attempts_outbox_idx").on(t.outboxId)],
);
