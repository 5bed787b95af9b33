import { endpointUrl } from "@/lib/api/endpoint";
import { columnChoicesEndpoints } from "@/lib/api/read/column-choices";
import { columnChoiceSchema, type ColumnChoice, type ColumnChoices } from "@/lib/contracts/column-choices";
import { columnChoiceKey, storeColumnChoice } from "./column-choice-store";
import { fetchJson } from "./fetch-json";
import { sendJson } from "./mutate";

// Loaded on demand by components/data-table/column-choice.tsx: tables paint from the browser's copy first.

const endpoint = columnChoicesEndpoints.columnChoices;
const base = endpointUrl(endpoint, { params: {}, search: {} });

/**
 * Per table, how many changes this window has made: a read of the server's choices that started
 * before a change must not copy the older choice over it when it lands.
 */
const changes = new Map<string, number>();
const changesOf = (table: string) => changes.get(table) ?? 0;

/** Per table, the last save sent or waiting: saves of one table go out one after another, in the order made. */
const saving = new Map<string, Promise<unknown>>();

/**
 * The signed-in person's column choices, by table, copied into this browser for the next first paint,
 * except for a table this window changed while the read was in flight.
 */
export async function readColumnChoices(userId: string): Promise<ColumnChoices["choices"]> {
  const before = new Map(changes);
  const { choices } = await fetchJson(base, endpoint.response);
  for (const [table, choice] of Object.entries(choices)) {
    if (changesOf(table) === (before.get(table) ?? 0)) storeColumnChoice(columnChoiceKey(userId, table), choice);
  }
  return choices;
}

/** Puts the server's choice for one table back in this browser (none: back to priorities), unless a newer change was made meanwhile. */
async function restoreColumnChoice(userId: string, table: string): Promise<void> {
  const before = changesOf(table);
  const { choices } = await fetchJson(base, endpoint.response);
  if (changesOf(table) === before) storeColumnChoice(columnChoiceKey(userId, table), choices[table as keyof typeof choices] ?? {});
}

/**
 * Keeps the person's new choice for one table on the server (this browser already shows it), after
 * any earlier save of that table has finished: answers null once saved, or why not. A refused save
 * that no newer change follows puts the server's choice back in this browser.
 */
export function saveColumnChoice(userId: string, table: string, columns: ColumnChoice): Promise<string | null> {
  const change = changesOf(table) + 1;
  changes.set(table, change);
  const send = () => sendJson("PUT", `${base}/${encodeURIComponent(table)}`, columnChoiceSchema, { columns });
  const done = (saving.get(table) ?? Promise.resolve())
    .then(send)
    .then(
      () => null,
      async (e: unknown) => {
        if (changesOf(table) === change) await restoreColumnChoice(userId, table).catch(() => undefined);
        return `not saved: ${e instanceof Error ? e.message : String(e)}`;
      },
    );
  saving.set(table, done);
  return done;
}
