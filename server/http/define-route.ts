import type { QueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { formatIssues } from "@/lib/contracts";
import { endpointKey, normalizeQuery, type Endpoint, type EndpointInput } from "@/lib/api/endpoint";
import type { ProjectRole } from "@/lib/auth/roles";
import { checkProjectRole, requireCaller, type Caller } from "../auth/access";
import { pageCaller } from "../auth/page-caller";
import { ApiError } from "./api-error";
import { route } from "./route";

/**
 * What a read handler gets: the parsed query, the path segments, the request's time, the caller
 * and, for an endpoint about one project, the caller's role in it (already checked).
 */
export interface ReadContext<Q extends z.ZodObject, P extends string> {
  query: z.output<Q>;
  params: Readonly<Record<P, string>>;
  now: number;
  caller: Caller;
  role: ProjectRole | null;
}

/** A read endpoint's server side: the `GET` route handler and the page prefetch, from one handler. */
export interface ReadRoute<Q extends z.ZodObject, R extends z.ZodType, P extends string> {
  endpoint: Endpoint<Q, R, P>;
  GET(req: Request, ctx: { params: Promise<Record<P, string>> }): Promise<Response>;
  /**
   * Seeds a page's query cache under the key the browser will use, by running the same handler the
   * route runs. A query the API would refuse is left alone: the client then fetches and shows the
   * API's own error.
   */
  prefetch(qc: QueryClient, input: EndpointInput<P>): Promise<void>;
}

type Handler<Q extends z.ZodObject, R extends z.ZodType, P extends string> = (
  ctx: ReadContext<Q, P>,
) => z.input<R> | Response | Promise<z.input<R> | Response>;

const issueList = (issues: readonly z.core.$ZodIssue[], prefix: string[] = []) =>
  issues.map((i) => ({ path: [...prefix, ...i.path.map(String)].join("."), message: i.message }));

function parseInput<Q extends z.ZodObject, P extends string>(
  endpoint: Endpoint<Q, z.ZodType, P>,
  paramSchemas: Partial<Record<P, z.ZodType<string>>>,
  input: EndpointInput<P>,
): { ok: true; query: z.output<Q>; params: Record<P, string> } | { ok: false; error: ApiError } {
  const params = { ...input.params } as Record<P, string>;
  for (const name of endpoint.pathParams) {
    const parsed = paramSchemas[name]?.safeParse(params[name]);
    if (parsed && !parsed.success) {
      return { ok: false, error: new ApiError("bad_request", `invalid ${name}: ${formatIssues(parsed.error.issues)}`, issueList(parsed.error.issues, [name])) };
    }
  }
  // Empty parameters were dropped by normalizeQuery: `?code=` means "no filter", as a cleared field sends it.
  const query = endpoint.query.safeParse(normalizeQuery(endpoint, input.search));
  if (!query.success) {
    return { ok: false, error: new ApiError("bad_request", `invalid query: ${formatIssues(query.error.issues)}`, issueList(query.error.issues)) };
  }
  return { ok: true, query: query.data, params };
}

/**
 * The project an endpoint reads, if it reads one: a `:project` path segment, else a `project` query
 * parameter. Every read about a project goes through here, so no endpoint can forget the check.
 */
function projectOf<Q extends z.ZodObject, P extends string>(endpoint: Endpoint<Q, z.ZodType, P>, query: z.output<Q>, params: Record<P, string>): string | null {
  if ((endpoint.pathParams as readonly string[]).includes("project")) return (params as Record<string, string>).project ?? null;
  const value = (query as Record<string, unknown>).project;
  return "project" in endpoint.query.shape && typeof value === "string" ? value : null;
}

/**
 * Defines a read endpoint's server side once: query and path parsed with the endpoint's schemas
 * (a bad value is a 400 in the error envelope), the caller checked (401 anonymous; for an endpoint
 * about a project, 404 when the caller is not a member, 403 below `minimumRole`, default viewer;
 * a `:project` path segment is checked before the query is parsed, the page prefetch checks the same role),
 * one handler that calls one `db/` function, and the same handler behind the page prefetch, which
 * runs as the page's caller. A handler may answer a `Response` itself (file exports).
 */
export function defineRoute<Q extends z.ZodObject, R extends z.ZodType, P extends string>(
  endpoint: Endpoint<Q, R, P>,
  handler: Handler<Q, R, P>,
  options: { params?: Partial<Record<P, z.ZodType<string>>>; minimumRole?: ProjectRole } = {},
): ReadRoute<Q, R, P> {
  const paramSchemas = options.params ?? {};
  const minimum = options.minimumRole ?? "viewer";
  const access = async (caller: Caller, query: z.output<Q>, params: Record<P, string>): Promise<ProjectRole | null> => {
    const project = projectOf(endpoint, query, params);
    return project === null ? null : checkProjectRole(caller, project, minimum);
  };
  return {
    endpoint,
    GET: route(async (req: Request, ctx: { params: Promise<Record<P, string>> }) => {
      const caller = await requireCaller(req);
      const search = Object.fromEntries(new URL(req.url).searchParams);
      const params = (await ctx?.params) ?? ({} as Record<P, string>);
      // A project in the path is checked before the query is parsed: a caller without rights there learns nothing from a 400.
      const inPath = (endpoint.pathParams as readonly string[]).includes("project") ? (params as Record<string, string>).project : undefined;
      const checked = inPath === undefined ? undefined : await checkProjectRole(caller, inPath, minimum);
      const input = parseInput(endpoint, paramSchemas, { params, search });
      if (!input.ok) throw input.error;
      const role = checked ?? (await access(caller, input.query, input.params));
      const answer = await handler({ query: input.query, params: input.params, now: Date.now(), caller, role });
      return answer instanceof Response ? answer : Response.json(answer);
    }),
    async prefetch(qc, raw) {
      const caller = await pageCaller();
      const input = parseInput(endpoint, paramSchemas, raw);
      if (!caller || !input.ok) return;
      // Refused (not a member, too weak a role): the client's own fetch shows the API's answer.
      const role = await access(caller, input.query, input.params).catch((error: unknown) => {
        if (error instanceof ApiError) return undefined;
        throw error;
      });
      if (role === undefined) return;
      const answer = await handler({ query: input.query, params: input.params, now: Date.now(), caller, role });
      if (!(answer instanceof Response)) qc.setQueryData(endpointKey(endpoint, raw), answer);
    },
  };
}
