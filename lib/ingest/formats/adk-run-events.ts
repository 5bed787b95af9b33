import type { Rejection } from "@/lib/contracts";
import { adkRunEventsBatchSchema, adkRunEventSchema, checkAdkRecord, type AdkRunEvent } from "@/lib/contracts/adk";
import type { z } from "zod";
import type { IngestFormat } from "../format";
import { kitEnvelope } from "./kit-list";
import { normalizeAdkRunEvents } from "../normalize-adk-run-events";
import { emptyRowBatch } from "../rows";

const TOOL_KINDS = new Set(["attempt_failed", "tool_error", "tool_refused", "tool_indeterminate", "tool_result"]);

/** `POST /api/v1/ingest/adk/run-events`: one kit run's event list. Unknown kinds are accepted and not stored. */
export const adkRunEventsFormat: IngestFormat<z.output<typeof adkRunEventsBatchSchema>> = {
  name: "adk-run-events",
  envelope: adkRunEventsBatchSchema,
  answer: "ingest-result",
  contentTypes: ["application/json"],
  parse: kitEnvelope(adkRunEventsBatchSchema, {
    listKey: "events", element: "run event", batchParams: ["run_id", "agent", "agent_version", "state"], required: ["run_id"],
    wrapped: '{"run_id": "…", "events": [ … ]}',
  }),
  normalize({ events, ...batch }) {
    const rejections: Rejection[] = [];
    const valid: (AdkRunEvent | null)[] = events.map((raw, index) => {
      const check = checkAdkRecord(adkRunEventSchema, raw, index, "kind");
      if (check.ok) return check.record;
      rejections.push({ ...check.rejection, id: null });
      return null;
    });
    valid.forEach((e, index) => {
      // A tool event without a tool name or a time cannot be placed on a call's timeline; a model
      // retry (an `attempt_failed` with usage) is not a tool event.
      const modelRetry = e?.kind === "attempt_failed" && e.usage != null;
      if (e && TOOL_KINDS.has(e.kind) && !modelRetry && (!e.name || e.at == null)) {
        rejections.push({ index, id: null, code: "invalid_record", message: `${e.kind} needs name (the tool) and at (Unix seconds)` });
        valid[index] = null;
      }
    });
    const ctx = { runId: batch.run_id, agent: batch.agent, agentVersion: batch.agent_version, state: batch.state, resource: batch.resource, total: events.length };
    const rows = normalizeAdkRunEvents(ctx, valid, emptyRowBatch());
    return { rows, rejections: rejections.sort((a, b) => a.index - b.index), accepted: valid.filter((e) => e !== null).length };
  },
};
