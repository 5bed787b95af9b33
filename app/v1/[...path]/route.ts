import { notFoundRoute } from "@/server/http/not-found";

export const dynamic = "force-dynamic";

// OTLP exporters configured with one base URL also post logs and metrics; say what is accepted.
export const { GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS } = notFoundRoute("Faultline accepts OTLP traces at /v1/traces only");
