/**
 * Codes the library assigns itself. The reference kit leaves timeouts, permission, lookup,
 * argument and result errors without a code; here each has a documented default the author may
 * override, so every recorded error can be grouped and policed by code.
 */
export const DEFAULT_CODES = {
  unmapped: "unmapped_failure",
  timedOut: "tool_timed_out",
  notPermitted: "tool_not_permitted",
  notFound: "tool_not_found",
  invalidArguments: "invalid_arguments",
  resultRejected: "result_rejected",
  circuitOpen: "circuit_open",
  resultUnserialisable: "result_unserialisable",
} as const;
