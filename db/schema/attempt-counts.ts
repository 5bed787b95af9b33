import { int, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { defineRollup, sum } from "../rollups/define-rollup";
import { HOUR_MS, SIX_HOURS_MS } from "../rollups/periods";

/**
 * Spans per attempt number, per tool and period. Calls that needed exactly k attempts are
 * spans(k) − spans(k+1), which gives the attempts-per-call histogram exactly, without raw scans.
 */
export const attemptCounts = defineRollup({
  tables: {
    hourly: { name: "attempt_counts_hourly", periodMs: HOUR_MS },
    sixHourly: { name: "attempt_counts_6h", periodMs: SIX_HOURS_MS },
  },
  period: "hour",
  keys: {
    projectId: text("project_id").notNull(),
    hour: int("hour").notNull(),
    tool: text("tool").notNull(),
    release: text("release").notNull(),
    service: text("service").notNull(),
    environment: text("environment").notNull(),
    attempt: int("attempt").notNull(),
  },
  values: {
    spans: sum(int("spans").notNull()),
  },
});

export const attemptCountsHourly = attemptCounts.tables.hourly;
export const attemptCounts6h = attemptCounts.tables.sixHourly;

export const attemptCountsHourlyPg = pgTableOf(attemptCountsHourly);
export const attemptCounts6hPg = pgTableOf(attemptCounts6h);
