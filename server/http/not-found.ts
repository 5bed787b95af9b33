import { ApiError, toErrorResponse } from "./api-error";

/**
 * Handlers for every method of a catch-all route: an unknown path answers the JSON envelope instead
 * of Next's HTML 404 page. `hint` tells the client where to go instead.
 */
export function notFoundRoute(hint = "") {
  const notFound = (req: Request) =>
    toErrorResponse(new ApiError("not_found", `no API endpoint at ${new URL(req.url).pathname.slice(0, 200)}${hint ? `; ${hint}` : ""}`));
  return { GET: notFound, HEAD: notFound, POST: notFound, PUT: notFound, DELETE: notFound, PATCH: notFound, OPTIONS: notFound };
}
