import type { Rejection } from "@/lib/contracts";
import {
  ADK_EVENT_TYPES,
  ADK_SCHEMA_VERSION,
  adkPublishedBatchSchema,
  adkPublishedEventSchema,
  checkAdkRecord,
  type AdkPublishedEvent,
} from "@/lib/contracts/adk";
import type { z } from "zod";
import type { IngestFormat } from "../format";
import { kitEnvelope } from "./kit-list";
import { normalizeAdkPublished } from "../normalize-adk-published";
import { emptyRowBatch } from "../rows";

/** `POST /api/v1/ingest/adk/published-events`: unknown types and body versions newer than Faultline reads are refused. */
export const adkPublishedEventsFormat: IngestFormat<z.output<typeof adkPublishedBatchSchema>> = {
  name: "adk-published-events",
  envelope: adkPublishedBatchSchema,
  answer: "ingest-result",
  contentTypes: ["application/json"],
  parse: kitEnvelope(adkPublishedBatchSchema, {
    listKey: "events", element: "published event envelope", batchParams: [], required: [],
    wrapped: '{"events": [ … ]}',
  }),
  normalize({ resource, events }) {
    const rejections: Rejection[] = [];
    const valid: { index: number; event: AdkPublishedEvent }[] = [];
    events.forEach((raw, index) => {
      const check = checkAdkRecord(adkPublishedEventSchema, raw, index, "event_id");
      if (!check.ok) return void rejections.push(check.rejection);
      const e = check.record;
      if (!(ADK_EVENT_TYPES as readonly string[]).includes(e.type)) {
        return void rejections.push({ index, id: e.event_id, code: "unknown_type", message: `type must be one of ${ADK_EVENT_TYPES.join(", ")}` });
      }
      if (e.schema_version > ADK_SCHEMA_VERSION) {
        return void rejections.push({
          index, id: e.event_id, code: "invalid_record",
          message: `schema_version ${e.schema_version} of ${e.type} is newer than the version Faultline reads (${ADK_SCHEMA_VERSION})`,
        });
      }
      valid.push({ index, event: e });
    });
    const { rows, refused } = normalizeAdkPublished(resource, valid, emptyRowBatch());
    const ids = new Map(valid.map((v) => [v.index, v.event.event_id]));
    for (const r of refused) rejections.push({ index: r.index, id: ids.get(r.index) ?? null, code: "invalid_record", message: r.message });
    return { rows, rejections: rejections.sort((a, b) => a.index - b.index), accepted: valid.length - refused.length };
  },
};
