import { listColumnChoices, setColumnChoiceChange } from "@/db/column-choices/column-choices";
import { endpoints } from "@/lib/api/endpoints";
import { checkColumnChoice, columnChoicePutSchema, columnTableSchema, COLUMN_TABLES } from "@/lib/contracts/column-choices";
import { ApiError } from "../http/api-error";
import { defineMutation } from "../http/define-mutation";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

/** `GET /api/v1/column-choices`: the signed-in person's column choices; the admin secret and setup mode have none. */
export const columnChoicesRoute = defineRoute(endpoints.columnChoices, async ({ caller }) => ({
  choices: caller.kind === "user" ? await listColumnChoices(await getStore(), caller.userId) : {},
}));

/** `PUT /api/v1/column-choices/:table` (any signed-in person, for themselves): the columns they show and hide in that table. */
export const columnChoicePut = defineMutation({
  params: ["table"],
  body: columnChoicePutSchema,
  access: "signed-in",
  change: async (tx, { params, body, caller, now }) => {
    if (caller.kind !== "user") throw new ApiError("forbidden", "column choices belong to a person: sign in to keep one");
    const table = columnTableSchema.safeParse(params.table);
    if (!table.success) throw new ApiError("not_found", `no table "${params.table}" has a column chooser (${Object.keys(COLUMN_TABLES).join(", ")} do)`);
    const issues = checkColumnChoice(table.data, body.columns);
    if (issues.length > 0) throw new ApiError("bad_request", `invalid body: ${issues.map((i) => i.message).join("; ")}`, issues);
    return setColumnChoiceChange(tx, caller.userId, table.data, body.columns, now);
  },
});
