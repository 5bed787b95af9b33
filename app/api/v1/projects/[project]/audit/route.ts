import { auditLogRoute } from "@/server/routes/audit-log";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = auditLogRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
