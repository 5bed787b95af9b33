import { auditLogQuerySchema, auditLogSchema } from "@/lib/contracts/audit-log";
import { keysSchema } from "@/lib/contracts/keys";
import { projectDetailSchema } from "@/lib/contracts/project-admin";
import { z } from "zod";
import { defineEndpoint } from "../endpoint";

const noQuery = z.object({});

/** A project's settings: its detail, keys and audit log. */
export const settingsEndpoints = {
  projectDetail: defineEndpoint<typeof noQuery, typeof projectDetailSchema, "project">({
    id: "project-detail",
    path: "/api/v1/projects/:project",
    query: noQuery,
    response: projectDetailSchema,
  }),
  projectKeys: defineEndpoint<typeof noQuery, typeof keysSchema, "project">({ id: "project-keys", path: "/api/v1/projects/:project/keys", query: noQuery, response: keysSchema }),
  auditLog: defineEndpoint<typeof auditLogQuerySchema, typeof auditLogSchema, "project">({
    id: "audit-log",
    path: "/api/v1/projects/:project/audit",
    query: auditLogQuerySchema,
    response: auditLogSchema,
  }),
} as const;
