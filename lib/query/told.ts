import { endpoints } from "@/lib/api/endpoints";
import { endpointQuery } from "./endpoint-query";

/** What the "After the model was told" panel narrows to: a code page passes its code, a tool page its tool. */
export interface ToldFilter {
  project?: string | undefined;
  code?: string | undefined;
  tool?: string | undefined;
  release?: string | undefined;
}

/** The panel's query; the page's server-side prefetch seeds the same key. */
export const toldOptions = (f: ToldFilter) =>
  endpointQuery(endpoints.told, { params: {}, search: { project: f.project, code: f.code, tool: f.tool, release: f.release } });
