import { listAuditLog } from "@/db/audit/list-audit-log";
import { endpoints } from "@/lib/api/endpoints";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

/** `GET /api/v1/projects/:project/audit`: admins page through who changed what, and their members' sign-ins. */
export const auditLogRoute = defineRoute(endpoints.auditLog, async ({ params, query }) => listAuditLog(await getStore(), params.project, query), { minimumRole: "admin" });
