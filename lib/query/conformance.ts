import { conformanceEndpoints } from "@/lib/api/read/conformance";
import { endpointQuery } from "./endpoint-query";

export const conformanceOptions = (project: string) => endpointQuery(conformanceEndpoints.conformance, { params: {}, search: { project } });
