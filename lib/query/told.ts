import { toldEndpoints } from "@/lib/api/read/told";
import { DEFAULT_RANGE } from "@/lib/contracts/filters";
import { endpointQuery } from "./endpoint-query";

/** What the "After the model was told" panel narrows to: a code page passes its code, a tool page its tool. */
export interface ToldFilter {
  project?: string | undefined;
  code?: string | undefined;
  tool?: string | undefined;
  release?: string | undefined;
  /** The page's window as its URL carries it; none given means the page's default range. */
  range?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** The page's window for the panel: its from/to when both are set, else its range or the default. */
const windowOf = (f: ToldFilter) => (f.from !== undefined && f.to !== undefined ? { from: f.from, to: f.to } : { range: f.range ?? DEFAULT_RANGE });

/** The panel's query string; the page's server-side prefetch seeds the same key with it. */
export const toldSearch = (f: ToldFilter) => ({ project: f.project, code: f.code, tool: f.tool, release: f.release, ...windowOf(f) });

/** The panel's query. */
export const toldOptions = (f: ToldFilter) => endpointQuery(toldEndpoints.told, { params: {}, search: toldSearch(f) });
