import { slosEndpoints } from "@/lib/api/read/slos";
import { sloCreateSchema, sloSchema, type SloPatch } from "@/lib/contracts/slos";
import { z } from "zod";
import { endpointQuery } from "./endpoint-query";
import { sendJson } from "./mutate";

export const slosOptions = (project: string) => endpointQuery(slosEndpoints.slos, { params: {}, search: { project } });
export const sloDetailOptions = (project: string, id: number) => endpointQuery(slosEndpoints.sloDetail, { params: {}, search: { project, id: String(id) } });

export const createSlo = (slo: z.input<typeof sloCreateSchema>) => sendJson("POST", "/api/v1/slos", sloSchema, slo);
export const patchSlo = (id: number, patch: SloPatch) => sendJson("PATCH", `/api/v1/slos/${id}`, sloSchema, patch);
/** DELETE answers 204 without a body. */
export const deleteSlo = (id: number) => sendJson("DELETE", `/api/v1/slos/${id}`, z.undefined());
