import { traceLinkEndpoints } from "@/lib/api/read/trace-links";
import { endpointUrl } from "@/lib/api/endpoint";
import { traceLinkAnswerSchema, type TraceLinkInput } from "@/lib/contracts/trace-links";
import { endpointQuery } from "./endpoint-query";
import { sendJson } from "./mutate";

const at = (project: string) => ({ params: { project }, search: {} });

/** The project's link to its tracing tool; it changes rarely. */
export const traceLinkQuery = (project: string) => ({ ...endpointQuery(traceLinkEndpoints.traceLink, at(project)), staleTime: 60_000 });

/** Sets the project's link (admins). */
export const putTraceLink = (project: string, input: TraceLinkInput) => sendJson("PUT", endpointUrl(traceLinkEndpoints.traceLink, at(project)), traceLinkAnswerSchema, input);

/** Removes the project's link (admins). */
export const deleteTraceLink = (project: string) => sendJson("DELETE", endpointUrl(traceLinkEndpoints.traceLink, at(project)), traceLinkAnswerSchema);
