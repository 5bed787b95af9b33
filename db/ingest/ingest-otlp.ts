import type { DecodedRequest } from "@/lib/otlp/decode";
import { extractToolSpans } from "@/lib/otlp/tool-spans";
import type { Store } from "../client";
import { normalizeOtlp } from "./normalize-otlp";
import { emptyRowBatch } from "./rows";
import { writeRows } from "./write-rows";

export interface OtlpIngestResult {
  stored: number;
  duplicates: number;
  /** Tool and agent spans, and unreadable spans, that were refused. */
  rejectedSpans: number;
  /** One line naming the first refused spans, for `partialSuccess.errorMessage`. */
  errorMessage: string;
  /** Valid spans that are neither tool nor agent spans; OTLP counts them as accepted. */
  ignored: number;
}

const MESSAGE_SPANS = 5;

/** Stores the tool spans and run records (agent spans) of a decoded OTLP request in one transaction and reports the rest. */
export function ingestOtlpTraces(store: Store, projectId: string, request: DecodedRequest): OtlpIngestResult {
  const { tools, runs, rejected, ignored } = extractToolSpans(request);
  const rows = normalizeOtlp(tools, runs, emptyRowBatch());
  const { duplicateIndexes, stored } =
    tools.length + runs.length > 0 ? writeRows(store, projectId, rows) : { duplicateIndexes: [], stored: 0 };
  const listed = rejected
    .slice(0, MESSAGE_SPANS)
    .map((r) => `span ${r.spanId ?? "(no id)"}: ${r.reason}`)
    .join("; ");
  const more = rejected.length > MESSAGE_SPANS ? `; and ${rejected.length - MESSAGE_SPANS} more` : "";
  return { stored, duplicates: duplicateIndexes.length, rejectedSpans: rejected.length, errorMessage: listed + more, ignored };
}
