import { nativeFormat } from "@/lib/ingest/formats/native";
import { ingestRoute } from "@/server/ingest/ingest-route";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

/** Faultline's native batch (DESIGN.md's wire contract). */
export const POST = ingestRoute(nativeFormat);
export const { GET, HEAD, PUT, DELETE, PATCH, OPTIONS } = otherMethods("POST");
