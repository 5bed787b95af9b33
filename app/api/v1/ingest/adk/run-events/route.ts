import { adkRunEventsFormat } from "@/lib/ingest/formats/adk-run-events";
import { ingestRoute } from "@/server/ingest/ingest-route";

export const dynamic = "force-dynamic";

/** The event list of one reference-kit run. */
export const POST = ingestRoute(adkRunEventsFormat);
