import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { alertOutbox } from "./alert-outbox";

/** Every delivery attempt of a notification, with the receiver's HTTP status or the connection error. */
export const alertAttempts = sqliteTable(
  "alert_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    outboxId: integer("outbox_id")
      .notNull()
      .references(() => alertOutbox.id, { onDelete: "cascade" }),
    attemptedAt: integer("attempted_at").notNull(),
    /** Null when no HTTP answer came (timeout, refused connection). */
    httpStatus: integer("http_status"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
  },
  (t) => [index("alert_attempts_outbox_idx").on(t.outboxId)],
);
