import { otlpFormat } from "@/lib/ingest/formats/otlp";
import { ingestRoute } from "@/server/ingest/ingest-route";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

/** OTLP/HTTP trace export (JSON or protobuf): tool and agent spans are stored, other spans acknowledged. */
export const POST = ingestRoute(otlpFormat);
export const { GET, HEAD, PUT, DELETE, PATCH, OPTIONS } = otherMethods("POST");
