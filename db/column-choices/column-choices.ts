import { columnChoiceSchema, columnTableSchema, type ColumnChoice, type ColumnChoices, type ColumnTable } from "@/lib/contracts/column-choices";
import { noChange, type Audited } from "../audit/audited-change";
import type { Executor, Tx } from "../client";

/** A stored choice, or {} when it no longer parses (a column since renamed is ignored by the table). */
function parseStored(raw: string): ColumnChoice {
  try {
    const parsed = columnChoiceSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** The person's column choices, by table (tables no longer known are left out). */
export async function listColumnChoices(db: Executor, userId: string): Promise<ColumnChoices["choices"]> {
  const rows = await db.all<{ tableKey: string; columns: string }>(`SELECT table_key AS "tableKey", columns FROM user_table_columns WHERE user_id = ? ORDER BY table_key`, [userId]);
  const choices: ColumnChoices["choices"] = {};
  for (const row of rows) {
    const table = columnTableSchema.safeParse(row.tableKey);
    if (table.success) choices[table.data] = parseStored(row.columns);
  }
  return choices;
}

/**
 * Replaces the person's choice for one table, audited; the same choice again changes nothing. `{}`
 * (back to priorities) is kept as a row too: it says "chosen here", so an older choice cached in some
 * browser does not come back.
 */
export async function setColumnChoiceChange(tx: Tx, userId: string, table: ColumnTable, choice: ColumnChoice, now: number): Promise<Audited<ColumnChoice>> {
  const before = await tx.get<{ columns: string }>("SELECT columns FROM user_table_columns WHERE user_id = ? AND table_key = ?", [userId, table]);
  const columns = JSON.stringify(Object.fromEntries(Object.entries(choice).sort(([a], [b]) => (a < b ? -1 : 1))));
  if (before?.columns === columns) return { result: choice, audit: noChange("the columns already are as asked") };
  await tx.run(
    `INSERT INTO user_table_columns (user_id, table_key, columns, updated_at) VALUES (@user, @table, @columns, @now)
     ON CONFLICT (user_id, table_key) DO UPDATE SET columns = excluded.columns, updated_at = excluded.updated_at`,
    { user: userId, table, columns, now },
  );
  const hidden = Object.keys(choice).filter((id) => choice[id] === "hidden").sort();
  return { result: choice, audit: { projectId: null, action: "columns.chosen", target: table, detail: { from: before ? parseStored(before.columns) : null, to: choice, hidden } } };
}
