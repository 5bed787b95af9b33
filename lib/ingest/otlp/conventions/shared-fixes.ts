import type { HintField } from "./convention";

/**
 * Fields no third-party convention carries: Faultline's own attributes supply them, next to the
 * convention's. Release is the OpenTelemetry resource's `service.version` for every convention.
 */
export const FAULTLINE_FIXES: Pick<Record<HintField, string>, "runId" | "attempt" | "outcome" | "code" | "errorClass" | "release"> = {
  runId: "faultline.run_id",
  attempt: "faultline.attempt",
  outcome: "faultline.outcome",
  code: "faultline.code",
  errorClass: "faultline.error_class",
  release: "service.version (resource)",
};

/** Where the release fix goes for every OpenTelemetry emitter: the provider's resource, not a span. */
export const RESOURCE_WHERE: Pick<Record<HintField, string>, "release"> = {
  release: 'the tracer provider\'s resource: resourceFromAttributes({ "service.version": … })',
};
