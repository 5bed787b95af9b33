import { ApiError, toErrorResponse } from "./api-error";

/** Wraps a route handler so that every thrown error becomes the JSON error envelope. */
export function route<A extends unknown[]>(handler: (...args: A) => Promise<Response> | Response) {
  return async (...args: A): Promise<Response> => {
    try {
      return await handler(...args);
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}

/**
 * A POST that changes nothing: its body is a query too large for a URL (the gate's code-contract
 * document), authenticated as a read. The named exception that the write-route check
 * (scripts/lint/write-routes.mjs) accepts in place of `defineMutation`; any real change uses that.
 */
export const readByPost = route;

/** The methods a Next route file can export. */
export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "DELETE" | "PATCH" | "OPTIONS";
const METHODS: readonly HttpMethod[] = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"];

/**
 * Handlers for every method a route does not serve: 405 in the JSON error envelope with `Allow`
 * (Next's own 405 has an empty body), and `OPTIONS` answering 204 with the same `Allow` (Next would
 * list these very handlers as allowed). A route file spreads the ones it needs:
 * `export const { GET, HEAD, PUT, DELETE, PATCH, OPTIONS } = otherMethods("POST");`
 */
export function otherMethods(...allowed: HttpMethod[]): Record<HttpMethod, (req: Request) => Response> {
  const allow = [...allowed, ...(allowed.includes("GET") && !allowed.includes("HEAD") ? (["HEAD"] as const) : []), "OPTIONS"].join(", ");
  const notAllowed = (req: Request) => {
    const error = new ApiError("method_not_allowed", `${req.method} is not supported here; use ${allowed.join(" or ")}`, undefined, { Allow: allow });
    return toErrorResponse(error);
  };
  const handlers = Object.fromEntries(METHODS.map((m) => [m, notAllowed])) as Record<HttpMethod, (req: Request) => Response>;
  handlers.OPTIONS = () => new Response(null, { status: 204, headers: { Allow: allow } });
  return handlers;
}
