import { z } from "zod";
import { issueCountsSchema } from "./issue-counts";

/**
 * Outcomes that open an issue: faults of the tool or around it. `declined` is the tool's answer and
 * `cancelled` the run's own doing; `ok` is no failure.
 */
export const ISSUE_OUTCOMES: readonly string[] = ["failed", "refused", "not_found", "timed_out", "invalid_arguments", "result_rejected"];

/** Where an issue stands in triage (lib/triage/issue-state.ts). `regressed`: resolved, then failed again later. */
export const ISSUE_STATES = ["open", "resolved", "ignored", "regressed"] as const;
export type IssueState = (typeof ISSUE_STATES)[number];
/** Resolved from now on, from the release after the latest one seen, or in a named release. */
export const RESOLVE_MODES = ["now", "next_release", "in_release"] as const;
export type ResolveMode = (typeof RESOLVE_MODES)[number];
/** Ignored until a date, until N more failures, or until an hour worse than any before. */
export const IGNORE_MODES = ["until_date", "until_count", "until_worse"] as const;
export type IgnoreMode = (typeof IGNORE_MODES)[number];

const projectParam = z.string().trim().min(1).max(200).default("default");
/** Empty means "no filter" (what a cleared form field sends). */
const optionalFilter = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((v) => (v ? v : undefined));

/** `unresolved` is every state but resolved and ignored: what needs someone. */
export const ISSUE_STATE_FILTERS = [...ISSUE_STATES, "unresolved"] as const;

/** `GET /api/v1/issues` query string. */
export const issuesQuerySchema = z.object({
  project: projectParam,
  state: z
    .union([z.enum(ISSUE_STATE_FILTERS), z.literal("")])
    .transform((v) => (v === "" ? undefined : v))
    .optional(),
  tool: optionalFilter,
  code: optionalFilter,
  /** A member's user id, or `none` for unassigned issues. */
  assignee: optionalFilter,
});
export type IssuesQuery = z.infer<typeof issuesQuerySchema>;

/** The failure group of an issue whose code slot is `group:<key>` (failures without a code: docs/classification.md). */
export const issueGroupSchema = z.object({
  key: z.string(),
  errorType: z.string().nullable(),
  httpStatus: z.number().nullable(),
  /** The message shape and the latest message of its calls still in the group; null when none is left (named, or past raw retention). */
  shape: z.string().nullable(),
  sample: z.string().nullable(),
});
export type IssueGroup = z.infer<typeof issueGroupSchema>;

export const issueSummarySchema = z.object({
  id: z.string(),
  tool: z.string(),
  code: z.string(),
  /** The state as of now: an ignore whose date has passed reads as open. */
  state: z.enum(ISSUE_STATES),
  resolution: z.object({ mode: z.enum(RESOLVE_MODES), release: z.string().nullable(), at: z.number() }).nullable(),
  ignore: z.object({ mode: z.enum(IGNORE_MODES), limit: z.number() }).nullable(),
  assignee: z.object({ userId: z.string(), name: z.string() }).nullable(),
  failures: z.number(),
  /** Failures the agent could not recover from: the first thing the ranking weighs. */
  unrecovered: z.number(),
  runs: z.number(),
  retries: z.number(),
  waitMs: z.number(),
  /** Failures in the last 24 hours and in the 24 before them. */
  trend: z.object({ current: z.number(), previous: z.number() }),
  firstSeen: z.number(),
  lastSeen: z.number(),
  /** Oldest and newest release the issue failed in, in release order. */
  releases: z.object({ first: z.string(), last: z.string(), count: z.number() }),
  /** The failure group, for an issue of failures without a code; null for a code's or an outcome's issue. */
  group: issueGroupSchema.nullable(),
});
export type IssueSummary = z.infer<typeof issueSummarySchema>;

export const issuesSchema = z.object({
  /** Counts per state over the whole project, whatever the filters (the navigation shows `unresolved`). */
  counts: issueCountsSchema,
  issues: z.array(issueSummarySchema),
});
export type IssuesAnswer = z.infer<typeof issuesSchema>;

export const issueDetailQuerySchema = z.object({ project: projectParam });

export const issueEventSchema = z.object({
  at: z.number(),
  actor: z.string(),
  kind: z.enum(["created", "regressed", "unignored", "state", "assigned", "note"]),
  detail: z.string(),
});

export const issueDetailSchema = z.object({
  issue: issueSummarySchema,
  releases: z.array(z.object({ release: z.string(), firstSeen: z.number(), lastSeen: z.number(), failures: z.number() })),
  history: z.array(issueEventSchema),
  /** The latest alert notifications that named this issue, newest first. */
  alerts: z.array(z.object({ id: z.number(), ruleName: z.string(), status: z.enum(["firing", "resolved"]), at: z.number(), value: z.string() })),
  /** A group's issue that a rule named: the code it was named as, and that code's issue (null while the code has none). */
  namedAs: z.object({ code: z.string(), issueId: z.string().nullable() }).nullable(),
});
export type IssueDetail = z.infer<typeof issueDetailSchema>;

/** A user's triage decision (lib/triage/issue-state.ts `TriageAction`). */
export const triageActionSchema = z.discriminatedUnion("mode", [
  z.object({ state: z.literal("open"), mode: z.literal("open") }),
  z.object({ state: z.literal("resolved"), mode: z.literal("now") }),
  z.object({ state: z.literal("resolved"), mode: z.literal("next_release") }),
  z.object({ state: z.literal("resolved"), mode: z.literal("in_release"), release: z.string().trim().min(1).max(200) }),
  z.object({ state: z.literal("ignored"), mode: z.literal("until_date"), until: z.number().int().positive() }),
  z.object({ state: z.literal("ignored"), mode: z.literal("until_count"), failures: z.number().int().min(1).max(1_000_000_000) }),
  z.object({ state: z.literal("ignored"), mode: z.literal("until_worse") }),
]);

/** `PATCH /api/v1/issues/:id`: a triage decision, an assignee (null: nobody), or both. */
export const issuePatchSchema = z
  .object({ triage: triageActionSchema.optional(), assignee: z.string().min(1).max(200).nullable().optional() })
  .strict()
  .refine((b) => b.triage !== undefined || b.assignee !== undefined, { message: "give triage, assignee or both" });
export type IssuePatch = z.infer<typeof issuePatchSchema>;

/** `POST /api/v1/issues/:id/notes`. */
export const issueNoteSchema = z.object({ text: z.string().trim().min(1).max(2000) }).strict();
