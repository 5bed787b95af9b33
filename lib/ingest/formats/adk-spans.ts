import type { Rejection } from "@/lib/contracts";
import { adkSpansBatchSchema, adkToolCallSpanSchema, checkAdkRecord, type AdkToolCallSpan } from "@/lib/contracts/adk";
import type { z } from "zod";
import type { IngestFormat } from "../format";
import { kitEnvelope } from "./kit-list";
import { normalizeAdkSpans } from "../normalize-adk-spans";
import { emptyRowBatch } from "../rows";

/**
 * `POST /api/v1/ingest/adk/spans`: the kit's `ToolCallSpan` records, as a bare list or wrapped. Each
 * needs a run id: on the record, the batch, or the query string (`?run_id=`).
 */
export const adkSpansFormat: IngestFormat<z.output<typeof adkSpansBatchSchema>> = {
  name: "adk-spans",
  envelope: adkSpansBatchSchema,
  answer: "ingest-result",
  contentTypes: ["application/json"],
  parse: kitEnvelope(adkSpansBatchSchema, {
    listKey: "spans", element: "ToolCallSpan record", batchParams: ["run_id", "agent"], required: [],
    wrapped: '{"run_id": "…", "spans": [ … ]}',
  }),
  normalize({ spans, ...batch }, now) {
    const rejections: Rejection[] = [];
    const valid: { index: number; span: AdkToolCallSpan; runId: string }[] = [];
    spans.forEach((raw, index) => {
      const check = checkAdkRecord(adkToolCallSpanSchema, raw, index, "id");
      if (!check.ok) return void rejections.push(check.rejection);
      const runId = check.record.run_id ?? batch.run_id;
      if (!runId) {
        return void rejections.push({ index, id: check.record.id ?? null, code: "invalid_record", message: "run_id: required on the span, the batch, or (for a bare list) the query string" });
      }
      valid.push({ index, span: check.record, runId });
    });
    const rows = normalizeAdkSpans({ runId: batch.run_id, agent: batch.agent, resource: batch.resource }, valid, emptyRowBatch(), now ?? Date.now());
    return { rows, rejections, accepted: valid.length };
  },
};
