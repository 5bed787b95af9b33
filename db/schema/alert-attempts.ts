import { index, int, serial, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { alertOutbox } from "./alert-outbox";

/** Every delivery attempt of a notification, with the receiver's HTTP status or the connection error. */
export const alertAttempts = table(
  "alert_attempts",
  {
    id: serial("id"),
    outboxId: int("outbox_id")
      .notNull()
      .references(() => alertOutbox.id, { onDelete: "cascade" }),
    attemptedAt: int("attempted_at").notNull(),
    /** Null when no HTTP answer came (timeout, refused connection). */
    httpStatus: int("http_status"),
    error: text("error"),
    durationMs: int("duration_ms").notNull(),
  },
  (t) => [index("alert_attempts_outbox_idx").on(t.outboxId)],
);

export const alertAttemptsPg = pgTableOf(alertAttempts);
