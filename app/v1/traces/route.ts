import { otlpFormat } from "@/lib/ingest/formats/otlp";
import { ingestRoute } from "@/server/ingest/ingest-route";

export const dynamic = "force-dynamic";

/** OTLP/HTTP trace export (JSON or protobuf): tool and agent spans are stored, other spans acknowledged. */
export const POST = ingestRoute(otlpFormat);
