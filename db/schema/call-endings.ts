import { int, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { defineRollup, sum } from "../rollups/define-rollup";
import { HOUR_MS } from "../rollups/periods";

/**
 * Ended tool calls per project × hour × tool × kind of ending, what SLOs count (docs/slos.md): a
 * call ends at its last attempt (db/slos/call-ending-sql.ts), in the hour that attempt started.
 * `failed`, `declined` and `recovered` are 0/1 as the SLO reads define them. A call's ending moves
 * when a later attempt arrives, its told step changes or a rule re-classifies it: ingest and the
 * re-classification jobs recount the calls they touched, before and after, and add the difference,
 * so a key may hold 0 (reads add it, which changes nothing). Hourly only: SLO windows read whole
 * hours from here and the partial hours at their edges from raw spans.
 */
export const callEndings = defineRollup({
  tables: { hourly: { name: "call_endings_hourly", periodMs: HOUR_MS } },
  period: "hour",
  keys: {
    projectId: text("project_id").notNull(),
    hour: int("hour").notNull(),
    tool: text("tool").notNull(),
    failed: int("failed").notNull(),
    declined: int("declined").notNull(),
    recovered: int("recovered").notNull(),
  },
  values: {
    calls: sum(int("calls").notNull()),
  },
});

export const callEndingsHourly = callEndings.tables.hourly;

export const callEndingsHourlyPg = pgTableOf(callEndingsHourly);
