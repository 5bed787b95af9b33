import type { DriftFinding } from "@/lib/contracts/drift";

/** Findings about one code of one tool between the same two releases: one card, one pair of panels. */
export interface FindingGroup {
  key: string;
  /** In the answer's order (most severe first); the first one sets the card's severity. */
  findings: DriftFinding[];
  /** The group's signatures (every finding of a group compares the same two). */
  lead: DriftFinding;
}

/**
 * Groups findings that compare the same signatures, so that two findings on one code (say its class
 * and its retryability both changed) say two sentences over one before/after pair instead of
 * repeating the same panels. Groups keep the order of their first finding.
 */
export function groupFindings(findings: readonly DriftFinding[]): FindingGroup[] {
  const groups = new Map<string, FindingGroup>();
  for (const f of findings) {
    // A model behaviour finding compares self-correction rates, not signatures: a card of its own.
    const key = [f.tool, f.code, f.renamedTo ?? "", f.fromRelease, f.toRelease, f.kind === "model_behaviour" ? "told" : ""].join("\u0000");
    const g = groups.get(key);
    if (g) g.findings.push(f);
    else groups.set(key, { key, findings: [f], lead: f });
  }
  return [...groups.values()];
}
