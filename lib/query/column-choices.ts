import { endpointUrl } from "@/lib/api/endpoint";
import { columnChoicesEndpoints } from "@/lib/api/read/column-choices";
import { columnChoiceSchema, type ColumnChoice } from "@/lib/contracts/column-choices";
import { columnChoiceKey, storeColumnChoice } from "./column-choice-store";
import { fetchJson } from "./fetch-json";
import { sendJson } from "./mutate";

// Loaded on demand by components/data-table/column-choice.tsx: tables paint from the browser's copy first.

const endpoint = columnChoicesEndpoints.columnChoices;
const base = endpointUrl(endpoint, { params: {}, search: {} });

/** The signed-in person's column choices, by table, copied into this browser for the next first paint. */
export async function readColumnChoices(userId: string): Promise<Partial<Record<string, ColumnChoice>>> {
  const { choices } = await fetchJson(base, endpoint.response);
  for (const [table, choice] of Object.entries(choices)) storeColumnChoice(columnChoiceKey(userId, table), choice);
  return choices;
}

/**
 * Keeps the person's new choice for one table on the server (this browser already shows it): answers
 * null once saved, or why not, after copying the server's choices back into this browser.
 */
export async function saveColumnChoice(userId: string, table: string, columns: ColumnChoice): Promise<string | null> {
  try {
    await sendJson("PUT", `${base}/${encodeURIComponent(table)}`, columnChoiceSchema, { columns });
    return null;
  } catch (e) {
    await readColumnChoices(userId).catch(() => undefined);
    return `not saved: ${e instanceof Error ? e.message : String(e)}`;
  }
}
