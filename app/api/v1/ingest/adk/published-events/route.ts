import { adkPublishedEventsFormat } from "@/lib/ingest/formats/adk-published-events";
import { ingestRoute } from "@/server/ingest/ingest-route";

export const dynamic = "force-dynamic";

/** The reference kit's published event envelopes. */
export const POST = ingestRoute(adkPublishedEventsFormat);
