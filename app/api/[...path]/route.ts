import { notFoundRoute } from "@/server/http/not-found";

export const dynamic = "force-dynamic";

// Every /api path without a route of its own lands here (Next matches static and dynamic segments
// before a catch-all).
export const { GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS } = notFoundRoute();
