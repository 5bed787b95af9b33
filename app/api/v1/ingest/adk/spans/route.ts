import { adkSpansFormat } from "@/lib/ingest/formats/adk-spans";
import { ingestRoute } from "@/server/ingest/ingest-route";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

/** The reference kit's ToolCallSpan observer records. */
export const POST = ingestRoute(adkSpansFormat);
export const { GET, HEAD, PUT, DELETE, PATCH, OPTIONS } = otherMethods("POST");
