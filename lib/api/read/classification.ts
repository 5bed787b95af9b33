import {
  classificationPreviewQuerySchema,
  classificationPreviewSchema,
  classificationProgressQuerySchema,
  classificationProgressSchema,
  classificationRulesQuerySchema,
  classificationRulesSchema,
  failureGroupsQuerySchema,
  failureGroupsSchema,
} from "@/lib/contracts/classification";
import { defineEndpoint } from "../endpoint";

/** Classification rules, previews, progress and failure groups. */
export const classificationEndpoints = {
  // Classification (docs/classification.md): rules, the preview of a candidate rule, groups of failures without a code, re-classification progress.
  classificationRules: defineEndpoint({ id: "classification-rules", path: "/api/v1/classification/rules", query: classificationRulesQuerySchema, response: classificationRulesSchema }),
  classificationPreview: defineEndpoint({ id: "classification-preview", path: "/api/v1/classification/preview", query: classificationPreviewQuerySchema, response: classificationPreviewSchema }),
  classificationProgress: defineEndpoint({ id: "classification-progress", path: "/api/v1/classification/progress", query: classificationProgressQuerySchema, response: classificationProgressSchema }),
  failureGroups: defineEndpoint({ id: "failure-groups", path: "/api/v1/classification/groups", query: failureGroupsQuerySchema, response: failureGroupsSchema }),
} as const;
