import { experimentsEndpoints } from "@/lib/api/read/experiments";
import { experimentDetailSchema, type ExperimentCreate, type ExperimentTransition } from "@/lib/contracts/experiments";
import { endpointQuery } from "./endpoint-query";
import { sendJson } from "./mutate";

/** The project's wording experiments, newest first. */
export const experimentsOptions = (project: string) => endpointQuery(experimentsEndpoints.experiments, { params: { project }, search: {} });

/** One experiment with its per-variant results and verdict. */
export const experimentDetailOptions = (project: string, id: string) => endpointQuery(experimentsEndpoints.experimentDetail, { params: { project, id }, search: {} });

const base = (project: string) => `/api/v1/projects/${encodeURIComponent(project)}/experiments`;
export const createExperiment = (project: string, body: ExperimentCreate) => sendJson("POST", base(project), experimentDetailSchema, body);
export const transitionExperiment = (project: string, id: string, t: ExperimentTransition) => sendJson("PATCH", `${base(project)}/${encodeURIComponent(id)}`, experimentDetailSchema, t);
