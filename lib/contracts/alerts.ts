import { z } from "zod";
import { ALERT_RECEIVER_FORMATS, ALERT_STATUSES } from "./alert-enums";
import { DRIFT_KINDS, DRIFT_SEVERITIES } from "./drift";

const projectSchema = z.string().min(1).max(100);
/** A tool filter: absent means every tool of the project. */
const toolFilter = z.string().min(1).max(200).optional();
const windowMinutes = z.number().int().min(1).max(24 * 60);

/** Each rule kind's thresholds; the evaluator (lib/alerts/evaluate.ts) reads exactly these. */
export const alertRuleParamsSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("new_code"), tool: toolFilter }),
  z.object({
    kind: z.literal("drift"),
    minSeverity: z.enum(DRIFT_SEVERITIES),
    /** Only findings of these kinds (e.g. `model_behaviour`); absent: every kind. */
    kinds: z.array(z.enum(DRIFT_KINDS)).min(1).max(DRIFT_KINDS.length).optional(),
  }),
  z.object({
    kind: z.literal("failure_rate"),
    tool: toolFilter,
    windowMinutes,
    /** Failed calls / calls, strictly above which the rule fires. */
    threshold: z.number().gt(0).lt(1),
    minCalls: z.number().int().min(1),
  }),
  z
    .object({
      kind: z.literal("retry_storm"),
      tool: toolFilter,
      windowMinutes,
      perMinute: z.number().positive().optional(),
      perCall: z.number().positive().optional(),
    })
    .refine((p) => p.perMinute !== undefined || p.perCall !== undefined, { message: "give perMinute, perCall or both" }),
  z.object({
    kind: z.literal("refusal_spike"),
    tool: toolFilter,
    windowMinutes,
    /** Refusals and declines in the window must reach this multiple of the previous window's. */
    factor: z.number().gt(1),
    minCount: z.number().int().min(1),
  }),
  z.object({ kind: z.literal("failed_closed"), tool: toolFilter, windowMinutes, threshold: z.number().int().min(1) }),
  /** Fires while an issue is regressed (docs/issues.md); resolves when someone triages it again. */
  z.object({ kind: z.literal("issue_regressed"), tool: toolFilter }),
  /** An SLO's multiwindow burn-rate alerts (lib/slo/burn.ts): page on a fast burn, ticket on a slow one. */
  z.object({ kind: z.literal("slo_burn"), slo: z.number().int().min(1) }),
]);
export type AlertRuleParams = z.infer<typeof alertRuleParamsSchema>;

export const alertRuleSchema = z.object({
  id: z.number().int(),
  project: z.string(),
  name: z.string(),
  params: alertRuleParamsSchema,
  receiverId: z.number().int().nullable(),
  muted: z.boolean(),
  snoozedUntil: z.number().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type AlertRule = z.infer<typeof alertRuleSchema>;

export const alertRulesQuerySchema = z.object({ project: projectSchema.default("default") });
export const alertRulesSchema = z.object({ rules: z.array(alertRuleSchema) });
export type AlertRulesAnswer = z.infer<typeof alertRulesSchema>;

const ruleName = z.string().trim().min(1).max(200);

export const alertRuleCreateSchema = z.object({
  project: projectSchema,
  name: ruleName,
  params: alertRuleParamsSchema,
  receiverId: z.number().int().nullable().default(null),
});
export type AlertRuleCreate = z.infer<typeof alertRuleCreateSchema>;

/** An edit: only the fields given change; `snoozedUntil: null` ends a snooze. */
export const alertRulePatchSchema = z
  .object({
    name: ruleName.optional(),
    params: alertRuleParamsSchema.optional(),
    receiverId: z.number().int().nullable().optional(),
    muted: z.boolean().optional(),
    snoozedUntil: z.number().int().nonnegative().nullable().optional(),
  })
  .refine((p) => Object.keys(p).length > 0, { message: "nothing to change" });
export type AlertRulePatch = z.infer<typeof alertRulePatchSchema>;

export const alertReceiverSchema = z.object({
  id: z.number().int(),
  project: z.string(),
  name: z.string(),
  url: z.string(),
  format: z.enum(ALERT_RECEIVER_FORMATS),
  createdAt: z.number(),
});
export type AlertReceiver = z.infer<typeof alertReceiverSchema>;

export const alertReceiversSchema = z.object({ receivers: z.array(alertReceiverSchema) });
export type AlertReceiversAnswer = z.infer<typeof alertReceiversSchema>;

const emailAddress = z.string().trim().max(254).regex(/^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,]+$/, "an e-mail address");

/**
 * A new receiver. `json` and `slack`: `url` is the webhook, `secret` its HMAC key (generated when
 * absent). `pagerduty`: `routingKey` is the Events API v2 integration key; `url` defaults to
 * PagerDuty's endpoint. `email`: `to` lists the recipients; the server's SMTP settings send it.
 */
export const alertReceiverCreateSchema = z
  .object({
    project: projectSchema,
    name: ruleName,
    format: z.enum(ALERT_RECEIVER_FORMATS).default("json"),
    url: z.string().trim().min(1).max(2000).optional(),
    /** The HMAC key; generated (and shown once in the answer) when absent. */
    secret: z.string().min(16).max(200).optional(),
    routingKey: z.string().trim().min(1).max(64).optional(),
    to: z.array(emailAddress).min(1).max(20).optional(),
  })
  .superRefine((r, ctx) => {
    const need = (field: "url" | "routingKey" | "to", message: string) => {
      if (r[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message });
    };
    if (r.format === "json" || r.format === "slack") need("url", "a webhook URL is required");
    if (r.format === "pagerduty") need("routingKey", "the PagerDuty integration (routing) key is required");
    if (r.format === "email") need("to", "at least one recipient is required");
  });
export type AlertReceiverCreate = z.infer<typeof alertReceiverCreateSchema>;

/** The created receiver; `secret` is a webhook's signing key, shown this once (null for PagerDuty and email). */
export const alertReceiverCreatedSchema = alertReceiverSchema.extend({ secret: z.string().nullable() });

/** `POST /api/v1/alerts/receivers/:id/test`: how a test notification went. */
export const alertReceiverTestSchema = z.object({
  delivered: z.boolean(),
  httpStatus: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number(),
});
export type AlertReceiverTestAnswer = z.infer<typeof alertReceiverTestSchema>;

export const alertStatusSchema = z.enum(ALERT_STATUSES);

export const alertHistoryQuerySchema = z.object({
  project: projectSchema.default("default"),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const alertAttemptSchema = z.object({ at: z.number(), httpStatus: z.number().nullable(), error: z.string().nullable(), durationMs: z.number() });

/** `pending`: attempts continue; `unsent`: the rule had no receiver. */
export const ALERT_DELIVERY_STATES = ["delivered", "pending", "gave_up", "unsent"] as const;

export const alertNotificationSchema = z.object({
  id: z.number().int(),
  ruleId: z.number().int(),
  ruleName: z.string(),
  receiver: z.string().nullable(),
  status: alertStatusSchema,
  tool: z.string(),
  code: z.string(),
  value: z.string(),
  link: z.string(),
  /** The issue of the notification's tool and code, as it stood when the notification was written. */
  issue: z.object({ id: z.string(), state: z.string(), link: z.string() }).nullable(),
  createdAt: z.number(),
  delivery: z.enum(ALERT_DELIVERY_STATES),
  nextAttemptAt: z.number().nullable(),
  attempts: z.array(alertAttemptSchema),
});
export type AlertNotificationRow = z.infer<typeof alertNotificationSchema>;

export const alertHistorySchema = z.object({
  notifications: z.array(alertNotificationSchema),
  page: z.object({ total: z.number().int(), offset: z.number().int(), limit: z.number().int() }),
});
export type AlertHistory = z.infer<typeof alertHistorySchema>;

/** `POST /api/v1/alerts/rules/preview`: a rule's params replayed over the project's last days. */
export const alertRulePreviewQuerySchema = z.object({ project: projectSchema, params: alertRuleParamsSchema });

export const alertRulePreviewSchema = z.object({
  from: z.number(),
  to: z.number(),
  stepMinutes: z.number().int(),
  /** Firing and resolved notifications the rule would have sent. */
  notifications: z.number().int(),
  episodes: z.array(z.object({ tool: z.string(), code: z.string(), value: z.string(), firedAt: z.number(), resolvedAt: z.number().nullable() })),
});
export type AlertRulePreviewAnswer = z.infer<typeof alertRulePreviewSchema>;

/** `PATCH /api/v1/alerts/receivers/:id`: a new name, or where it sends (the field its kind uses); the kind stays. */
export const alertReceiverPatchSchema = z
  .object({
    name: ruleName.optional(),
    url: z.string().trim().min(1).max(2000).optional(),
    routingKey: z.string().trim().min(1).max(64).optional(),
    to: z.array(emailAddress).min(1).max(20).optional(),
  })
  .refine((p) => Object.keys(p).length > 0, { message: "nothing to change" });
export type AlertReceiverPatch = z.infer<typeof alertReceiverPatchSchema>;
