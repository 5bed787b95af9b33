import { int, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { defineRollup, max, min, sum } from "../rollups/define-rollup";

/**
 * The codes catalogue: first and last sighting of each code per tool, release, tool version, class
 * and retryability. Keying on class and retryability is what lets a code with two meanings show up.
 * `retryable` is 1, 0, or -1 for unknown.
 */
export const codeCatalogue = defineRollup({
  tables: { all: { name: "codes" } },
  keys: {
    projectId: text("project_id").notNull(),
    code: text("code").notNull(),
    tool: text("tool").notNull(),
    release: text("release").notNull(),
    toolVersion: text("tool_version").notNull(),
    errorClass: text("error_class").notNull(),
    retryable: int("retryable").notNull(),
  },
  values: {
    firstSeen: min(int("first_seen").notNull()),
    lastSeen: max(int("last_seen").notNull()),
    spans: sum(int("spans").notNull()),
    errors: sum(int("errors").notNull()),
  },
});

export const codes = codeCatalogue.tables.all;

export const codesPg = pgTableOf(codes);
