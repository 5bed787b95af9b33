import { decodeJsonRequest } from "@/lib/ingest/otlp/decode";
import type { Store } from "@/db/client";
import { ingestOtlp } from "../../helpers/ingest";
import { i, ns, request, s, span, T0, type Attr } from "../otlp/fixtures";

/** A GenAI tool span: failed (status Error) with the given extra attributes and message, or ok when `message` is null. */
export function toolSpan(n: number, tool: string, message: string | null, extra: Attr[] = [], offsetMs = n * 1000) {
  return span({
    spanId: n.toString(16).padStart(16, "0"),
    parentSpanId: "",
    startTimeUnixNano: ns(T0 + offsetMs),
    endTimeUnixNano: ns(T0 + offsetMs + 100),
    attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", tool), s("gen_ai.tool.call.id", `call_${n}`), ...extra],
    ...(message === null ? {} : { status: { code: 2, message } }),
  });
}

export const status = (code: number) => i("http.response.status_code", code);
export const errorType = (t: string) => s("error.type", t);

/** Sends OTLP spans as one request to the default project. */
export const sendOtlp = (store: Store, spans: unknown[]) => ingestOtlp(store, "default", decodeJsonRequest(request(spans)));

/**
 * The counters classification moves, from the rollups and recounted from the raw spans, per key, in
 * one order: re-classification must keep them equal.
 */
export async function rollupsAndRecount(store: Store) {
  const all = (sql: string) => store.all<Record<string, unknown>>(sql);
  return {
    spanRollups: await all(
      `SELECT tool, code, outcome, error_class AS "errorClass", sum(spans) AS spans, sum(retry_after_count) AS "retryAfter", sum(retry_after_sum_ms) AS "retryAfterMs"
       FROM span_rollups_hourly GROUP BY tool, code, outcome, error_class HAVING sum(spans) <> 0 ORDER BY tool, code, outcome, error_class`,
    ),
    spanRecount: await all(
      `SELECT tool, coalesce(code, '') AS code, coalesce(outcome, '') AS outcome, coalesce(error_class, '') AS "errorClass", count(*) AS spans,
         sum(CASE WHEN retry_after_ms IS NULL THEN 0 ELSE 1 END) AS "retryAfter", coalesce(sum(retry_after_ms), 0) AS "retryAfterMs"
       FROM tool_call_spans GROUP BY tool, coalesce(code, ''), coalesce(outcome, ''), coalesce(error_class, '') ORDER BY tool, code, outcome, "errorClass"`,
    ),
    spanRollups6h: await all(`SELECT tool, code, sum(spans) AS spans FROM span_rollups_6h GROUP BY tool, code HAVING sum(spans) <> 0 ORDER BY tool, code`),
    span6hRecount: await all(`SELECT tool, coalesce(code, '') AS code, count(*) AS spans FROM tool_call_spans GROUP BY tool, coalesce(code, '') ORDER BY tool, code`),
    codes: await all(`SELECT code, tool, error_class AS "errorClass", retryable, spans FROM codes WHERE spans <> 0 OR errors <> 0 ORDER BY code, tool, error_class, retryable`),
    codesRecount: await all(
      `SELECT code, tool, coalesce(error_class, '') AS "errorClass", CASE WHEN retryable IS NULL THEN -1 ELSE retryable END AS retryable, count(*) AS spans
       FROM tool_call_spans WHERE code IS NOT NULL GROUP BY code, tool, coalesce(error_class, ''), CASE WHEN retryable IS NULL THEN -1 ELSE retryable END ORDER BY code, tool, "errorClass", retryable`,
    ),
    delays: await all(`SELECT code, kind, bucket_ms AS "bucketMs", sum(count) AS n FROM delay_histograms_hourly GROUP BY code, kind, bucket_ms HAVING sum(count) <> 0 ORDER BY code, kind, bucket_ms`),
    runCodes: await all(`SELECT code, run_id AS "runId", tool, count FROM run_codes ORDER BY code, run_id, tool`),
    runCodesRecount: await all(
      `SELECT code, run_id AS "runId", tool, count(*) AS count FROM (
         SELECT code, run_id, tool FROM tool_call_spans WHERE code IS NOT NULL UNION ALL SELECT code, run_id, tool FROM tool_errors WHERE code IS NOT NULL
       ) AS sightings GROUP BY code, run_id, tool ORDER BY code, run_id, tool`,
    ),
    runStats: await all(`SELECT run_id AS "runId", failed_attempts AS failed, declined, refused FROM run_stats ORDER BY run_id`),
    runRecount: await all(
      `SELECT run_id AS "runId", sum(CASE WHEN outcome IS NOT NULL AND outcome <> 'ok' THEN 1 ELSE 0 END) AS failed,
         sum(CASE WHEN outcome = 'declined' THEN 1 ELSE 0 END) AS declined, sum(CASE WHEN outcome = 'refused' THEN 1 ELSE 0 END) AS refused
       FROM tool_call_spans GROUP BY run_id ORDER BY run_id`,
    ),
  };
}
