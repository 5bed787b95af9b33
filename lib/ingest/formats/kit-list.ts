import type { z } from "zod";
import { checkEnvelope, EnvelopeError, parseJsonBody } from "../format";

/** How one kit endpoint reads a bare JSON list: where the list goes and what the URL may add. */
export interface KitListShape {
  /** The envelope field the list becomes (`events` or `spans`). */
  listKey: "events" | "spans";
  /** What one element is, for messages ("run event", "ToolCallSpan record"). */
  element: string;
  /** Envelope fields a bare list may take from the query string. */
  batchParams: readonly string[];
  /** Which of those are required for a bare list; the first missing one is named in the answer. */
  required: readonly string[];
  /** The wrapped form, as shown in answers. */
  wrapped: string;
}

/** Resource fields a bare list may take from the query string (`?release=2026.11.3`). */
const RESOURCE_PARAMS = ["service", "release", "environment"] as const;

/**
 * A kit run-event list carries no run id, but an observer may have added the same `run_id` to
 * every event; a list naming one run is read as that run's list.
 */
function sharedRunId(list: readonly unknown[]): string | undefined {
  let shared: string | undefined;
  for (const item of list) {
    const id = typeof item === "object" && item !== null ? (item as Record<string, unknown>).run_id : undefined;
    if (typeof id !== "string" || (shared !== undefined && id !== shared)) return undefined;
    shared = id;
  }
  return shared;
}

/** The envelope a bare list stands for: the list under its key, batch fields from the URL. */
function wrapList(list: unknown[], shape: KitListShape, query: URLSearchParams | undefined): Record<string, unknown> {
  const envelope: Record<string, unknown> = { [shape.listKey]: list };
  for (const name of shape.batchParams) {
    const value = query?.get(name);
    if (value) envelope[name] = value;
  }
  if (envelope.run_id === undefined && shape.batchParams.includes("run_id")) {
    const shared = sharedRunId(list);
    if (shared !== undefined) envelope.run_id = shared;
  }
  const resource: Record<string, string> = {};
  for (const name of RESOURCE_PARAMS) {
    const value = query?.get(name);
    if (value) resource[name] = value;
  }
  if (Object.keys(resource).length > 0) envelope.resource = resource;
  const missing = shape.required.find((name) => envelope[name] === undefined);
  if (missing !== undefined) {
    throw new EnvelopeError(
      "bad_request",
      `a bare list of ${shape.element}s does not say its ${missing}: add ?${missing}=… to the URL, or send ${shape.wrapped}`,
      [{ path: missing, message: `required: in the query string for a bare list, or in the envelope` }],
    );
  }
  return envelope;
}

/**
 * The `parse` of a reference-kit endpoint. The kit writes its records as bare JSON lists; such a list
 * is accepted as it is, with what the kit leaves out of it (the run id, the agent, the release) taken
 * from the query string. The wrapped envelope is accepted too. Any other body is a 400 that names
 * both accepted shapes.
 */
export const kitEnvelope =
  <S extends z.ZodType>(schema: S, shape: KitListShape) =>
  (body: Uint8Array, _contentType?: string, query?: URLSearchParams): z.output<S> => {
    const parsed = parseJsonBody(body);
    if (Array.isArray(parsed)) return checkEnvelope(schema, wrapList(parsed, shape, query));
    if (typeof parsed !== "object" || parsed === null) {
      throw new EnvelopeError("bad_request", `expected a JSON list of ${shape.element}s, or ${shape.wrapped}`, [
        { path: "", message: "must be a JSON list or object" },
      ]);
    }
    try {
      return checkEnvelope(schema, parsed);
    } catch (error) {
      if (!(error instanceof EnvelopeError)) throw error;
      throw new EnvelopeError(error.code, `${error.message} (expected ${shape.wrapped}, or a bare JSON list of ${shape.element}s)`, error.issues);
    }
  };
