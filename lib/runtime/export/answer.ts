import type { PostResult } from "./http";
import type { DropReason } from "./stats";

/** What the exporter does with one answer to a batch of `n` records. */
export type AnswerVerdict =
  | { kind: "done"; rejected: number; duplicates?: number; reason?: DropReason; message?: string }
  | { kind: "split" }
  | { kind: "retry"; reason: DropReason; message: string };

/**
 * Reads one answer: a network failure, 429 or 5xx is retried; 413 splits the batch; 2xx settles it
 * with the records the server rejected and the duplicates it skipped; any other status drops the
 * batch as a client error, with a message for the diagnostics hook.
 */
export function classifyAnswer(res: PostResult, n: number): AnswerVerdict {
  if (res.kind === "network") return { kind: "retry", reason: "network_error", message: `network error: ${res.error}` };
  const { status, body } = res;
  if (status === 413) return { kind: "split" };
  if (status === 429 || status >= 500) return { kind: "retry", reason: "server_error", message: `server answered ${status}` };
  if (status >= 200 && status < 300) return { kind: "done", rejected: rejectedCount(body, n), duplicates: duplicatesOf(body) };
  return { kind: "done", rejected: n, reason: "client_error", message: `server answered ${status}${status === 401 ? " (check the ingest key)" : ""}` };
}

function duplicatesOf(body: unknown): number {
  const d = (body as { duplicates?: unknown } | undefined)?.duplicates;
  return typeof d === "number" && Number.isInteger(d) ? d : 0;
}

/** Rejected records in a 200/207 answer: unique in-range indices (native) or `rejectedSpans` (OTLP). */
function rejectedCount(body: unknown, n: number): number {
  if (typeof body !== "object" || body === null) return 0;
  const b = body as { rejected?: unknown; partialSuccess?: { rejectedSpans?: unknown } };
  if (Array.isArray(b.rejected)) {
    const indices = new Set<number>();
    for (const r of b.rejected) {
      const i = (r as { index?: unknown } | null)?.index;
      if (typeof i === "number" && Number.isInteger(i) && i >= 0 && i < n) indices.add(i);
    }
    return indices.size;
  }
  const spans = Number(b.partialSuccess?.rejectedSpans ?? 0);
  return Number.isFinite(spans) ? Math.min(Math.max(0, Math.trunc(spans)), n) : 0;
}
