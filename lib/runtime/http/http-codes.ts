/**
 * Codes the HTTP helpers assign. Each one is stable public API, like every code; override a
 * status with a rule (`statuses`) to use your own.
 */
export const HTTP_CODES = {
  rateLimited: "rate_limited",
  unavailable: "upstream_unavailable",
  requestTimeout: "upstream_timeout",
  serverError: "upstream_error",
  unauthorized: "upstream_unauthorized",
  forbidden: "upstream_forbidden",
  notFound: "upstream_not_found",
  conflict: "upstream_conflict",
  rejected: "upstream_rejected_request",
  clientError: "upstream_client_error",
  unreachable: "upstream_unreachable",
  unresolvable: "upstream_unresolvable",
  connectionLost: "upstream_connection_lost",
} as const;
