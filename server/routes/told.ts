import { getTold } from "@/db/told/get-told";
import { endpoints } from "@/lib/api/endpoints";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

/** `GET /api/v1/told`: what models did after being told errors, for the "After the model was told" panel. */
export const toldRoute = defineRoute(endpoints.told, async ({ query, now }) => getTold(await getStore(), query, now));
