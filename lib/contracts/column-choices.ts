import { z } from "zod";

/**
 * The tables with a column chooser and their column ids (components/*-table.tsx), which a person's
 * choice may name. The first column names the row and always shows, so it is not choosable.
 */
export const COLUMN_TABLES = {
  tools: [
    "topCodes", "calls", "callsNotOk", "callNotOkRate", "attempts", "failures", "failureRate", "declined", "refused", "meanAttempts",
    "maxAttempts", "retryShare", "retryAfterP50", "retryAfterP90", "backoffP50", "backoffP90", "failedClosed",
  ],
  codes: ["errorClass", "retryable", "failures", "told", "outcomes", "tools", "releases", "firstSeen", "lastSeen"],
  runs: ["agent", "release", "state", "startedAt", "duration", "toolCalls", "attempts", "retries", "failedAttempts", "errors", "declined", "refused", "unanswered"],
} as const satisfies Record<string, readonly string[]>;
export type ColumnTable = keyof typeof COLUMN_TABLES;
export const columnTableSchema = z.enum(Object.keys(COLUMN_TABLES) as [ColumnTable, ...ColumnTable[]]);

/** Per column id: shown or hidden by the person's own choice; absent means "by priority and width". */
export const columnChoiceSchema = z.record(z.string().max(40), z.enum(["shown", "hidden"]));
export type ColumnChoice = Readonly<Record<string, "shown" | "hidden">>;

/** `PUT /api/v1/column-choices/:table`: the whole choice for that table; `{}` goes back to priorities. */
export const columnChoicePutSchema = z.object({ columns: columnChoiceSchema });

/** The body checked against the table's own columns (the path names the table). */
export function checkColumnChoice(table: ColumnTable, choice: ColumnChoice): { path: string; message: string }[] {
  const known: readonly string[] = COLUMN_TABLES[table];
  return Object.keys(choice)
    .filter((id) => !known.includes(id))
    .map((id) => ({ path: `columns.${id}`, message: `${table} has no choosable column "${id}" (it has ${known.join(", ")})` }));
}

/** `GET /api/v1/column-choices`: the signed-in person's choices, by table (none for callers who are not a person). */
export const columnChoicesSchema = z.object({ choices: z.partialRecord(columnTableSchema, columnChoiceSchema) });
export type ColumnChoices = z.infer<typeof columnChoicesSchema>;
export const columnChoicesQuerySchema = z.object({});
