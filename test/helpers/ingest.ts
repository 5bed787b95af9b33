// The ingest formats called the way their routes call them, without HTTP: parse is skipped, the
// envelope is given as the format's schema output. Each resolves once the batch is committed.
import type { Store } from "@/db/client";
import type { IngestResult, Resource } from "@/lib/contracts";
import { adkPublishedEventsFormat } from "@/lib/ingest/formats/adk-published-events";
import { adkRunEventsFormat } from "@/lib/ingest/formats/adk-run-events";
import { adkSpansFormat } from "@/lib/ingest/formats/adk-spans";
import { nativeFormat } from "@/lib/ingest/formats/native";
import { otlpFormat } from "@/lib/ingest/formats/otlp";
import type { DecodedRequest } from "@/lib/ingest/otlp/decode";
import { ingestEnvelope } from "@/server/ingest/ingest-envelope";

type RunEventsBatch = { resource?: Resource; run_id: string; agent?: string; agent_version?: string; state?: Parameters<typeof adkRunEventsFormat.normalize>[0]["state"] };

export const ingestNativeBatch = (store: Store, projectId: string, resource: Resource | undefined, records: unknown[]): Promise<IngestResult> =>
  ingestEnvelope(store, projectId, nativeFormat, { resource, records });

export const ingestAdkRunEvents = (store: Store, projectId: string, batch: RunEventsBatch, events: unknown[]): Promise<IngestResult> =>
  ingestEnvelope(store, projectId, adkRunEventsFormat, { ...batch, events });

export const ingestAdkPublished = (store: Store, projectId: string, resource: Resource | undefined, events: unknown[]): Promise<IngestResult> =>
  ingestEnvelope(store, projectId, adkPublishedEventsFormat, { resource, events });

/** `now` stands in for the request's arrival (what a record without `at` is timed by). */
export const ingestAdkSpans = (store: Store, projectId: string, batch: { resource?: Resource; run_id?: string; agent?: string }, spans: unknown[], now?: number): Promise<IngestResult> =>
  ingestEnvelope(store, projectId, adkSpansFormat, { ...batch, spans }, now);

export const ingestOtlp = (store: Store, projectId: string, request: DecodedRequest): Promise<IngestResult> => ingestEnvelope(store, projectId, otlpFormat, request);
