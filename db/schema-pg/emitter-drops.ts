import { text } from "drizzle-orm/pg-core";
import { int } from "./int";
import { rollupTable } from "./rollup-table";

/** PostgreSQL twin of db/schema/emitter-drops.ts. */
export const emitterDrops = rollupTable(
  "emitter_drops",
  {
    projectId: text("project_id").notNull(),
    service: text("service").notNull(),
    convention: text("convention").notNull(),
    reason: text("reason").notNull(),
    attribute: text("attribute").notNull(),
    spans: int("spans").notNull(),
    lastSeen: int("last_seen").notNull(),
  },
  ["projectId", "service", "convention", "reason", "attribute"],
);
