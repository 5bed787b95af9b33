import { ApiError, toErrorResponse } from "@/server/http/api-error";

export const dynamic = "force-dynamic";

// Every /api path without a route of its own lands here (Next matches static and dynamic segments
// before a catch-all), so an unknown path answers the JSON envelope instead of the HTML 404 page.
const notFound = (req: Request) => toErrorResponse(new ApiError("not_found", `no API endpoint at ${new URL(req.url).pathname.slice(0, 200)}`));

export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const DELETE = notFound;
export const PATCH = notFound;
export const OPTIONS = notFound;
