import { int, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { defineRollup, max, sum } from "../rollups/define-rollup";

/**
 * Spans that looked like tool calls but could not be stored, per project, emitter (service +
 * convention), reason and the attribute to fix. Every delivery counts: OTLP exporters do not resend
 * a request answered 200, so a re-count needs a lost answer.
 */
export const emitterDropsRollup = defineRollup({
  tables: { all: { name: "emitter_drops" } },
  keys: {
    projectId: text("project_id").notNull(),
    service: text("service").notNull(),
    convention: text("convention").notNull(),
    reason: text("reason").notNull(),
    /** The attribute to add or fix ('' when the span could not be read at all). */
    attribute: text("attribute").notNull(),
  },
  values: {
    spans: sum(int("spans").notNull()),
    lastSeen: max(int("last_seen").notNull()),
  },
});

export const emitterDrops = emitterDropsRollup.tables.all;

export const emitterDropsPg = pgTableOf(emitterDrops);
