import { searchText } from "@/db/queries/text-search";
import { endpoints } from "@/lib/api/endpoints";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

/** `GET /api/v1/search/text`: calls whose attempt error message or told text matches a full-text query. */
export const textSearchRoute = defineRoute(endpoints.textSearch, async ({ query }) => searchText(await getStore(), query));
