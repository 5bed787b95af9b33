import { findingId } from "@/lib/drift/compare";
import { releaseKey } from "@/lib/drift/release-key";
import type { SpanRow } from "@/lib/ingest/rows";
import { ISSUE_OUTCOMES } from "@/lib/contracts/issues";

const HOUR_MS = 3_600_000;

const OPENS_ISSUE: ReadonlySet<string> = new Set(ISSUE_OUTCOMES);

/** Run-loop decisions after which the agent did not recover from the failure. */
const UNRECOVERED: ReadonlySet<string> = new Set(["failed_run", "failed_closed", "exhausted", "budget_capped"]);

/** The stable id of a project's issue for one tool and code: the same on every node. */
export const issueId = (projectId: string, tool: string, code: string): string => findingId(["issue", projectId, tool, code]);

/** The issue a span belongs to, or null when its outcome opens none: its code, else its outcome. */
export function issueCodeOf(span: Pick<SpanRow, "outcome" | "code">): string | null {
  if (span.outcome === null || !OPENS_ISSUE.has(span.outcome)) return null;
  return span.code !== null && span.code !== "" ? span.code : span.outcome;
}

/** Which issue a span files under (its code slot), or null for none. */
export type IssueCodeOf = (span: SpanRow) => string | null;

/** What one batch adds to one issue. */
export interface IssueBatch {
  id: string;
  tool: string;
  code: string;
  failures: { release: string; at: number }[];
  unrecovered: number;
  retries: number;
  waitMs: number;
  firstSeen: number;
  lastSeen: number;
  /** Failures per release label, with first and last sighting. */
  releases: Map<string, { firstSeen: number; lastSeen: number; failures: number }>;
  /** Failures per hour start. */
  hours: Map<number, number>;
  runIds: Set<string>;
}

/** Groups a batch's new failing spans by issue (`codeOf` names each one's; by default code, else outcome), in (tool, code) order so every node locks issues in one order. */
export function issueBatches(projectId: string, spans: readonly SpanRow[], codeOf: IssueCodeOf = issueCodeOf): IssueBatch[] {
  const byKey = new Map<string, IssueBatch>();
  for (const s of spans) {
    const code = codeOf(s);
    if (code === null) continue;
    const key = `${s.tool}\u0000${code}`;
    let b = byKey.get(key);
    if (!b) {
      b = { id: issueId(projectId, s.tool, code), tool: s.tool, code, failures: [], unrecovered: 0, retries: 0, waitMs: 0, firstSeen: s.startedAt, lastSeen: s.startedAt, releases: new Map(), hours: new Map(), runIds: new Set() };
      byKey.set(key, b);
    }
    const release = releaseKey(s.toolVersion, s.release, s.sdkVersion, s.startedAt).release;
    b.failures.push({ release, at: s.startedAt });
    if (s.decision !== null && UNRECOVERED.has(s.decision)) b.unrecovered++;
    if (s.decision === "retried") {
      b.retries++;
      b.waitMs += s.backoffMs ?? 0;
    }
    b.firstSeen = Math.min(b.firstSeen, s.startedAt);
    b.lastSeen = Math.max(b.lastSeen, s.startedAt);
    const r = b.releases.get(release);
    if (r) {
      r.failures++;
      r.firstSeen = Math.min(r.firstSeen, s.startedAt);
      r.lastSeen = Math.max(r.lastSeen, s.startedAt);
    } else b.releases.set(release, { firstSeen: s.startedAt, lastSeen: s.startedAt, failures: 1 });
    const hour = Math.floor(s.startedAt / HOUR_MS) * HOUR_MS;
    b.hours.set(hour, (b.hours.get(hour) ?? 0) + 1);
    b.runIds.add(s.runId);
  }
  return [...byKey.values()].sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}
