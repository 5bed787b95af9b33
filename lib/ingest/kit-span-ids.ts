import { createHash } from "node:crypto";
import type { AdkToolCallSpan } from "@/lib/contracts/adk";

/**
 * The id of a kit `ToolCallSpan` that came without one: `adk-span:` and 32 hex digits of the SHA-256
 * of the run id, the call id, every field the record carries (in a fixed order, so key order in the
 * file does not matter) and its occurrence number — how many earlier records of the same request had
 * the same run and content. So re-sending a file (or the file with more records appended) yields the
 * same ids and stores nothing twice, while two identical attempts in one file stay two records. Two
 * records with the same content and no `at` in *different* requests cannot be told apart and are
 * stored once; an observer that can add `at` or `id` avoids that.
 */
export function kitSpanIds(spans: readonly { span: AdkToolCallSpan; runId: string }[]): string[] {
  const seen = new Map<string, number>();
  return spans.map(({ span: s, runId }) => {
    if (s.id !== undefined) return s.id;
    const content = JSON.stringify([
      runId, s.call_id ?? null, s.attempt ?? null, s.at ?? null, s.tool, s.agent, s.release ?? s.agent_version ?? null,
      s.permitted, s.outcome, s.duration_seconds, s.failure, s.code, s.abandoned,
    ]);
    const occurrence = seen.get(content) ?? 0;
    seen.set(content, occurrence + 1);
    const digest = createHash("sha256").update(`${content}#${occurrence}`).digest("hex");
    return `adk-span:${digest.slice(0, 32)}`;
  });
}

/**
 * Attempt numbers for records that name their call but not their attempt: the kit calls its
 * observer once per attempt, in order, so the n-th record of a (run, call) in a request is attempt
 * n (ordered by `at` where every record of the call has one). The numbering is per request: the
 * kit writes one run's records into one file, and a call split over two requests would be numbered
 * from 1 in each. Records without a call id stay unnumbered (each is its own call, attempt unknown).
 */
export function kitSpanAttempts(spans: readonly { span: AdkToolCallSpan; runId: string }[]): (number | null)[] {
  const byCall = new Map<string, number[]>();
  spans.forEach(({ span: s, runId }, i) => {
    if (s.call_id === undefined || s.attempt !== undefined) return;
    const key = JSON.stringify([runId, s.call_id]);
    const list = byCall.get(key);
    if (list) list.push(i);
    else byCall.set(key, [i]);
  });
  const attempts: (number | null)[] = spans.map(({ span: s }) => s.attempt ?? null);
  for (const positions of byCall.values()) {
    const timed = positions.every((i) => spans[i]!.span.at !== undefined);
    const ordered = timed ? [...positions].sort((a, b) => spans[a]!.span.at! - spans[b]!.span.at! || a - b) : positions;
    ordered.forEach((i, n) => (attempts[i] = n + 1));
  }
  return attempts;
}
