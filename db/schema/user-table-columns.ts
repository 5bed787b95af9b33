import { int, primaryKey, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { users } from "./users";

/**
 * A person's column choice for one dashboard table (lib/contracts/column-choices.ts): which columns
 * they showed or hid, as JSON `{ "<column id>": "shown" | "hidden" }`. No row: columns by priority.
 */
export const userTableColumns = table(
  "user_table_columns",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The table, e.g. `runs` (COLUMN_TABLES). */
    tableKey: text("table_key").notNull(),
    columns: text("columns").notNull(),
    updatedAt: int("updated_at").notNull(),
  },
  (t) => [primaryKey({ name: "user_table_columns_pk", columns: [t.userId, t.tableKey] })],
);

export const userTableColumnsPg = pgTableOf(userTableColumns);
