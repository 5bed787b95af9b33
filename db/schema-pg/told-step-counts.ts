import { text } from "drizzle-orm/pg-core";
import type { ToldRunState, ToldStep } from "@/lib/contracts/told";
import { int } from "./int";
import { rollupTable } from "./rollup-table";

/** PostgreSQL twin of db/schema/told-step-counts.ts. */
export const toldStepCounts = rollupTable(
  "told_step_counts",
  {
    projectId: text("project_id").notNull(),
    tool: text("tool").notNull(),
    code: text("code").notNull(),
    release: text("release").notNull(),
    shape: text("shape").notNull(),
    step: text("step").$type<ToldStep>().notNull(),
    runState: text("run_state").$type<ToldRunState>().notNull(),
    calls: int("calls").notNull(),
    errors: int("errors").notNull(),
    firstSeen: int("first_seen").notNull(),
    lastSeen: int("last_seen").notNull(),
  },
  ["projectId", "tool", "code", "release", "shape", "step", "runState", "calls"],
);
