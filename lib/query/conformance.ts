import { endpoints } from "@/lib/api/endpoints";
import { endpointQuery } from "./endpoint-query";

export const conformanceOptions = (project: string) => endpointQuery(endpoints.conformance, { params: {}, search: { project } });
