import { adkRunEventsFormat } from "@/lib/ingest/formats/adk-run-events";
import { ingestRoute } from "@/server/ingest/ingest-route";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

/** The event list of one reference-kit run. */
export const POST = ingestRoute(adkRunEventsFormat);
export const { GET, HEAD, PUT, DELETE, PATCH, OPTIONS } = otherMethods("POST");
