import { z } from "zod";

// Its own module, apart from lib/contracts/issues.ts: the navigation's count is on every page, and
// the full issues contract (list, detail, triage bodies) would come along into every page's script.

/** Issues per state over a whole project; `unresolved` is open and regressed together: what needs someone. */
export const issueCountsSchema = z.object({ open: z.number(), regressed: z.number(), resolved: z.number(), ignored: z.number(), unresolved: z.number() });
export type IssueCounts = z.infer<typeof issueCountsSchema>;

/** `GET /api/v1/issues/counts` query string. */
export const issueCountsQuerySchema = z.object({ project: z.string().trim().min(1).max(200).default("default") });

/** `GET /api/v1/issues/counts`: the counts alone, whatever filters the Issues page has. */
export const issueCountsAnswerSchema = z.object({ counts: issueCountsSchema });
export type IssueCountsAnswer = z.infer<typeof issueCountsAnswerSchema>;
