import { int, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { defineRollup, sum } from "../rollups/define-rollup";
import { HOUR_MS } from "../rollups/periods";

/** Hourly counters of final tool errors by decision. */
export const errorRollups = defineRollup({
  tables: { hourly: { name: "error_rollups_hourly", periodMs: HOUR_MS } },
  period: "hour",
  keys: {
    projectId: text("project_id").notNull(),
    hour: int("hour").notNull(),
    tool: text("tool").notNull(),
    code: text("code").notNull(),
    errorClass: text("error_class").notNull(),
    decision: text("decision").notNull(),
    release: text("release").notNull(),
    service: text("service").notNull(),
    environment: text("environment").notNull(),
  },
  values: {
    errors: sum(int("errors").notNull()),
    attemptsSum: sum(int("attempts_sum").notNull()),
    retryableCount: sum(int("retryable_count").notNull()),
  },
});

export const errorRollupsHourly = errorRollups.tables.hourly;

export const errorRollupsHourlyPg = pgTableOf(errorRollupsHourly);
