import type { SpanRow } from "@/lib/ingest/rows";
import { issueCodeOf } from "./issue-batch";

// A failure left without a code belongs to a failure group (docs/classification.md); its issue is
// kept in the code slot as `group:<key>`, so the (project, tool, code) key, the id derivation and
// every issue query work for it unchanged (docs/issues.md).

const PREFIX = "group:";

/**
 * The outcomes whose code-less failures file under their group. The others (`timed_out`,
 * `not_found`, `invalid_arguments`, `result_rejected`) already say what went wrong, and keep their
 * outcome's issue.
 */
const BY_GROUP: ReadonlySet<string> = new Set(["failed", "refused"]);

/** The issue code of a failure group. */
export const groupIssueCode = (groupKey: string): string => `${PREFIX}${groupKey}`;

/** The failure group an issue code names, or null for a code or outcome issue. */
export const groupKeyOfIssueCode = (code: string): string | null => (code.startsWith(PREFIX) ? code.slice(PREFIX.length) : null);

/**
 * The issue a span belongs to, groups included: a failed or refused span without a code that
 * classification put in a failure group files under the group; others as {@link issueCodeOf} says
 * (code, else outcome).
 */
export function issueOrGroupCodeOf(span: Pick<SpanRow, "outcome" | "code" | "classification">): string | null {
  const code = issueCodeOf(span);
  if (code === null || (span.code !== null && span.code !== "") || !BY_GROUP.has(span.outcome ?? "")) return code;
  const key = span.classification?.groupKey ?? null;
  return key === null ? code : groupIssueCode(key);
}

/** The rule that named a group, as the note names it. */
export interface NamingRule {
  code: string;
  name: string;
  version: number;
}

/** The history note of a group issue resolved because a rule named it. */
export const namedNote = (r: NamingRule): string => `named as ${r.code} by rule “${r.name}” v${r.version}`;

/** The code a {@link namedNote} names, or null for any other note. */
export function codeOfNamedNote(note: string): string | null {
  const m = /^named as (\S+) by rule “/.exec(note);
  return m ? m[1]! : null;
}
