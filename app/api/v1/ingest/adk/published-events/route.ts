import { adkPublishedEventsFormat } from "@/lib/ingest/formats/adk-published-events";
import { ingestRoute } from "@/server/ingest/ingest-route";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

/** The reference kit's published event envelopes. */
export const POST = ingestRoute(adkPublishedEventsFormat);
export const { GET, HEAD, PUT, DELETE, PATCH, OPTIONS } = otherMethods("POST");
