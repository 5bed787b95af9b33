import { z } from "zod";
import { auditActionSchema, auditEntrySchema } from "./audit";
import { pageInfoSchema, pageQuerySchema } from "./paging";

/** `GET /api/v1/projects/:project/audit`: a page of entries, newest first, optionally one action or one actor. */
export const auditLogQuerySchema = pageQuerySchema.omit({ q: true }).extend({
  action: auditActionSchema.optional(),
  /** An actor as the log names it: a user's email, `admin secret`, `cli` or `setup mode` (case-insensitive). */
  actor: z.string().trim().toLowerCase().min(1).max(320).optional(),
});
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;

export const auditLogSchema = z.object({ entries: z.array(auditEntrySchema), page: pageInfoSchema });
export type AuditLogAnswer = z.infer<typeof auditLogSchema>;
