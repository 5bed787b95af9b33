import { columnChoicesQuerySchema, columnChoicesSchema } from "@/lib/contracts/column-choices";
import { defineEndpoint } from "../endpoint";

/** The signed-in person's column choices, by table (docs/column-choices.md). */
export const columnChoicesEndpoints = {
  columnChoices: defineEndpoint({ id: "column-choices", path: "/api/v1/column-choices", query: columnChoicesQuerySchema, response: columnChoicesSchema }),
} as const;
