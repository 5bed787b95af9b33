import { z } from "zod";
import { ISSUE_STATES } from "./issues";

const projectParam = z.string().trim().min(1).max(200).default("default");

/** `GET /api/v1/releases`: the project's releases and, over the last `days` days, the share of runs on each. */
export const releasesQuerySchema = z.object({
  project: projectParam,
  days: z.coerce.number().int().min(1).max(400).default(30),
});
export type ReleasesQuery = z.infer<typeof releasesQuerySchema>;

/** A release's traffic, all time: calls and attempts of every tool in it, the runs that ran it. */
export const releaseSummarySchema = z.object({
  release: z.string(),
  firstSeen: z.number(),
  lastSeen: z.number(),
  calls: z.number(),
  /** Calls that did not end ok (a call whose retry succeeded ended ok). */
  callsNotOk: z.number(),
  runs: z.number(),
});
export type ReleaseSummary = z.infer<typeof releaseSummarySchema>;

export const releasesSchema = z.object({
  /** How the releases are ordered, as drift orders them: SemVer when every label parses, else first sighting. */
  order: z.enum(["semver", "first_seen"]),
  /** Oldest first. */
  releases: z.array(releaseSummarySchema),
  /** Runs started per UTC day and release (`""`: runs that named no release); days without runs are absent (a gap, not a zero). */
  adoption: z.object({
    from: z.number(),
    to: z.number(),
    stepMs: z.number(),
    days: z.array(z.object({ at: z.number(), runs: z.record(z.string(), z.number()) })),
  }),
});
export type ReleasesAnswer = z.infer<typeof releasesSchema>;

export const releaseHealthQuerySchema = z.object({ project: projectParam });

/** A release as an address names it (`/api/v1/releases/:release`, the release page). */
export const releaseParamSchema = z.string().min(1).max(200, "must be at most 200 characters");

/** What the release page's address holds: the release it names, and its read's query. */
export const releasePageQuerySchema = releaseHealthQuerySchema.extend({ release: releaseParamSchema });

const toolHealth = z.object({
  calls: z.number(),
  callsNotOk: z.number(),
  /** callsNotOk / calls; null without calls. */
  failureShare: z.number().nullable(),
  /** Surfaced errors whose next step is known, and those the model recovered from (docs/after-told.md). */
  told: z.object({ decided: z.number(), recovered: z.number() }),
  /** recovered / decided; null when nothing was decided. */
  selfCorrection: z.number().nullable(),
});
export type ToolHealth = z.infer<typeof toolHealth>;

export const releaseIssueSchema = z.object({
  id: z.string(),
  tool: z.string(),
  code: z.string(),
  state: z.enum(ISSUE_STATES),
  /** Failures in the release the list is about (for resolved issues: in the previous release). */
  failures: z.number(),
});
export type ReleaseIssue = z.infer<typeof releaseIssueSchema>;

/** `GET /api/v1/releases/:release`: every tool's health in one release next to the previous one, and its issues. */
export const releaseHealthSchema = z.object({
  release: z.string(),
  previous: z.string().nullable(),
  order: z.enum(["semver", "first_seen"]),
  firstSeen: z.number(),
  lastSeen: z.number(),
  runs: z.number(),
  tools: z.array(toolHealth.extend({ tool: z.string(), previous: toolHealth.nullable() })),
  issues: z.object({
    /** Issues whose first failing release is this one. */
    new: z.array(releaseIssueSchema),
    /** Issues regressed now whose failures in this release broke their resolution. */
    regressed: z.array(releaseIssueSchema),
    /** Issues resolved by this release: resolved in it, or in the release after the previous one, and not failing in it. */
    resolved: z.array(releaseIssueSchema),
  }),
});
export type ReleaseHealth = z.infer<typeof releaseHealthSchema>;
