import { ingestBatchSchema, type IngestBatch, type IngestRecord, type Rejection } from "@/lib/contracts";
import { jsonEnvelope, type IngestFormat } from "../format";
import { normalizeNative } from "../normalize-native";
import { checkNativeRecord } from "../plain-record";
import { emptyRowBatch } from "../rows";

/** `POST /api/v1/ingest`: Faultline's own batch (DESIGN.md's wire contract), each record checked alone. */
export const nativeFormat: IngestFormat<IngestBatch> = {
  name: "native",
  envelope: ingestBatchSchema,
  answer: "ingest-result",
  contentTypes: ["application/json"],
  parse: jsonEnvelope(ingestBatchSchema),
  normalize({ resource, records }) {
    const valid: { index: number; record: IngestRecord }[] = [];
    const rejections: Rejection[] = [];
    records.forEach((raw, index) => {
      const check = checkNativeRecord(raw, index);
      if (check.ok) valid.push({ index, record: check.record });
      else rejections.push(check.rejection);
    });
    return { rows: normalizeNative(resource, valid, emptyRowBatch()), rejections, accepted: valid.length };
  },
};
