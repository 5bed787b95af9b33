import type { QueryClient } from "@tanstack/react-query";
import { endpointUrl } from "@/lib/api/endpoint";
import { columnChoicesEndpoints } from "@/lib/api/read/column-choices";
import { columnChoiceSchema, type ColumnChoice, type ColumnChoices } from "@/lib/contracts/column-choices";
import { columnChoiceKey, storeColumnChoice } from "./column-choice-store";
import { fetchJson } from "./fetch-json";
import { sendJson } from "./mutate";

// Loaded on demand by components/data-table/column-choice.tsx: tables paint from the browser's copy first.

const endpoint = columnChoicesEndpoints.columnChoices;
const base = endpointUrl(endpoint, { params: {}, search: {} });
/** The cache entry of the person's choices (set at once on a change, before the server answers). */
const KEY = ["column-choices"];

/** The signed-in person's column choices, by table, copied into this browser for the next first paint. */
export async function readColumnChoices(userId: string): Promise<Partial<Record<string, ColumnChoice>>> {
  const { choices } = await fetchJson(base, endpoint.response);
  for (const [table, choice] of Object.entries(choices)) storeColumnChoice(columnChoiceKey(userId, table), choice);
  return choices;
}

/**
 * Shows the person's new choice for one table at once and keeps it on the server: answers null once
 * saved, or why not (the cache is then read again, so the table shows what the server holds).
 */
export async function saveColumnChoice(client: QueryClient, table: string, columns: ColumnChoice): Promise<string | null> {
  client.setQueryData<ColumnChoices["choices"]>(KEY, (before) => ({ ...before, [table]: columns }));
  try {
    await sendJson("PUT", `${base}/${encodeURIComponent(table)}`, columnChoiceSchema, { columns });
    return null;
  } catch (e) {
    void client.invalidateQueries({ queryKey: KEY });
    return `not saved: ${e instanceof Error ? e.message : String(e)}`;
  }
}
