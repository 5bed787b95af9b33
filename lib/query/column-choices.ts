import { endpointUrl } from "@/lib/api/endpoint";
import { columnChoicesEndpoints } from "@/lib/api/read/column-choices";
import { columnChoiceSchema, type ColumnChoice, type ColumnChoices } from "@/lib/contracts/column-choices";
import { fetchJson } from "./fetch-json";
import { sendJson } from "./mutate";

// Loaded on demand by components/data-table/column-choice.tsx: tables paint from the browser's copy first.

const endpoint = columnChoicesEndpoints.columnChoices;
const base = endpointUrl(endpoint, { params: {}, search: {} });

/** The signed-in person's column choices, by table. */
export const readColumnChoices = async (signal?: AbortSignal): Promise<ColumnChoices["choices"]> => (await fetchJson(base, endpoint.response, signal)).choices;

/** Keeps the person's choice for one table on the server. */
export const saveColumnChoice = (table: string, columns: ColumnChoice) => sendJson("PUT", `${base}/${encodeURIComponent(table)}`, columnChoiceSchema, { columns });
