import { codesEndpoints } from "@/lib/api/read/codes";
import { endpointQuery } from "./endpoint-query";
import type { DashboardSearch } from "./search";

/** The Codes page's read. */
export const codesQuery = (s: DashboardSearch) => endpointQuery(codesEndpoints.codes, { params: {}, search: s });

/** One code's page. */
export const codeDetailQuery = (code: string, s: DashboardSearch) => endpointQuery(codesEndpoints.codeDetail, { params: {}, search: { ...s, code } });
