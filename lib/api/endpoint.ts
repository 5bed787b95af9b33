import type { z } from "zod";

/** A query string as pages and the URL carry it: every value a string, absent when not given. */
export type RawQuery = Readonly<Record<string, string | string[] | undefined>>;

/**
 * One read endpoint, described once and shared by its route handler (`server/http/define-route.ts`),
 * the server-side prefetch and the client's `queryOptions` (`lib/query`): its path, the schema of its
 * query string and of its answer, and so its React Query key. Query parameters are camelCase or
 * short words, answers camelCase (docs/architecture.md); an empty parameter means "no filter".
 */
export interface Endpoint<Q extends z.ZodObject, R extends z.ZodType, P extends string = never> {
  /** First element of every query key of this endpoint. */
  id: string;
  /** URL path; `:name` segments are filled from `params` (URL-encoded). */
  path: string;
  /** Names of the path's `:name` segments, in order. */
  pathParams: readonly P[];
  query: Q;
  response: R;
}

/** What a caller gives an endpoint: its path segments and its (raw, string) query. */
export interface EndpointInput<P extends string> {
  params: Readonly<Record<P, string>>;
  search: RawQuery;
}

/** Declares an endpoint; `pathParams` are read off `path`. */
export function defineEndpoint<Q extends z.ZodObject, R extends z.ZodType, P extends string = never>(spec: {
  id: string;
  path: string;
  query: Q;
  response: R;
}): Endpoint<Q, R, P> {
  const pathParams = [...spec.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] as P);
  return { ...spec, pathParams };
}

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/**
 * The query an endpoint reads, normalised: only its own keys, in its schema's order, without empty
 * values. Equal views therefore make equal keys and URLs, on the server and in the browser.
 */
export function normalizeQuery(endpoint: Pick<Endpoint<z.ZodObject, z.ZodType, string>, "query">, search: RawQuery): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(endpoint.query.shape)) {
    const value = first(search[key]);
    if (value !== undefined && value !== "") out[key] = value;
  }
  return out;
}

/** The endpoint's React Query key: id, path segments, normalised query. */
export function endpointKey<P extends string>(endpoint: Endpoint<z.ZodObject, z.ZodType, P>, input: EndpointInput<P>): readonly unknown[] {
  return [endpoint.id, ...endpoint.pathParams.map((p) => input.params[p]), normalizeQuery(endpoint, input.search)];
}

/** The endpoint's URL (path and query string) for an input. */
export function endpointUrl<P extends string>(endpoint: Endpoint<z.ZodObject, z.ZodType, P>, input: EndpointInput<P>): string {
  const path = endpoint.path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(input.params[name as P]));
  const qs = new URLSearchParams(normalizeQuery(endpoint, input.search)).toString();
  return qs ? `${path}?${qs}` : path;
}
