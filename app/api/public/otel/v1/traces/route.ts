import { otlpFormat } from "@/lib/ingest/formats/otlp";
import { ingestRoute } from "@/server/ingest/ingest-route";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

/**
 * Langfuse's OTLP path: its span processor (`LangfuseSpanProcessor`) posts here under its base URL,
 * with the key as the Basic password (its secret key). The same receiver as `/v1/traces`.
 */
export const POST = ingestRoute(otlpFormat);
export const { GET, HEAD, PUT, DELETE, PATCH, OPTIONS } = otherMethods("POST");
