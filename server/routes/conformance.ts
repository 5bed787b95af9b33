import { getConformance } from "@/db/queries/get-conformance";
import { endpoints } from "@/lib/api/endpoints";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

/** What each ingest format's tool spans lack, per project. */
export const conformanceRoute = defineRoute(endpoints.conformance, async ({ query }) => getConformance(await getStore(), query));
