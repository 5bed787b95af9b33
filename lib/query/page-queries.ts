import type { z } from "zod";
import { normalizeQuery, type Endpoint, type RawQuery } from "@/lib/api/endpoint";
import { endpoints } from "@/lib/api/endpoints";
import { releasePageQuerySchema } from "@/lib/contracts/releases";
import { normalizeDriftFilters } from "./drift";
import { normalizeRunsFilters } from "./runs";

/** What a page's address is checked against: the query of the endpoint it reads, or its own (a release page's adds the release its path names). */
type Checked = Pick<Endpoint<z.ZodObject, z.ZodType, string>, "query">;

/** The first bad query parameter of a page's address: its name, its value and what is wrong with it. */
export interface QueryProblem {
  name: string;
  value: string | undefined;
  message: string;
}

/** Checks a query against the endpoint the page reads, as the page's prefetch would read it. */
export function queryProblem(endpoint: Checked, search: RawQuery): QueryProblem | null {
  const query = normalizeQuery(endpoint, search);
  const parsed = endpoint.query.safeParse(query);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  const name = String(issue.path[0] ?? "query");
  return { name, value: query[name], message: issue.message };
}

/**
 * The dashboard pages whose address carries filters, with the endpoint each one reads and how it
 * reads the query (a subject in the path becomes the endpoint's `tool` or `code`). The proxy checks
 * a page's address with it so that a bad parameter is answered with HTTP 400 before the page runs;
 * the page words the same problem from the same check.
 */
const PAGE_QUERIES: { path: RegExp; endpoint: Checked; read: (search: RawQuery, subject: string | undefined) => RawQuery }[] = [
  { path: /^\/$/, endpoint: endpoints.overview, read: (s) => s },
  { path: /^\/tools\/?$/, endpoint: endpoints.tools, read: (s) => s },
  { path: /^\/tools\/([^/]+)\/?$/, endpoint: endpoints.toolDetail, read: (s, tool) => ({ ...s, tool }) },
  { path: /^\/codes\/?$/, endpoint: endpoints.codes, read: (s) => s },
  { path: /^\/codes\/([^/]+)\/?$/, endpoint: endpoints.codeDetail, read: (s, code) => ({ ...s, code }) },
  { path: /^\/runs\/?$/, endpoint: endpoints.runs, read: (s) => normalizeRunsFilters(s) },
  { path: /^\/drift\/?$/, endpoint: endpoints.driftFindings, read: (s) => normalizeDriftFilters(s) },
  { path: /^\/issues\/?$/, endpoint: endpoints.issues, read: (s) => s },
  { path: /^\/conformance\/?$/, endpoint: endpoints.conformance, read: (s) => s },
  { path: /^\/releases\/?$/, endpoint: endpoints.releases, read: (s) => s },
  { path: /^\/releases\/([^/]+)\/?$/, endpoint: { query: releasePageQuerySchema }, read: (s, release) => ({ ...s, release }) },
  { path: /^\/settings\/projects\/[^/]+\/audit\/?$/, endpoint: endpoints.auditLog, read: (s) => s },
];

const decode = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** What is wrong with a page address's query, or null when it is fine or the page reads no filters. */
export function pageQueryProblem(pathname: string, params: URLSearchParams): QueryProblem | null {
  for (const page of PAGE_QUERIES) {
    const match = page.path.exec(pathname);
    if (!match) continue;
    const search: Record<string, string> = {};
    // The first value of a repeated parameter is the one pages read.
    for (const [key, value] of params) if (!(key in search)) search[key] = value;
    return queryProblem(page.endpoint, page.read(search, match[1] === undefined ? undefined : decode(match[1])));
  }
  return null;
}
