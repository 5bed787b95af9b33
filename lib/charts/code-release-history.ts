import type { CodeReleaseHistory, DriftFinding, DriftKind } from "@/lib/contracts/drift";
import { orderReleases } from "@/lib/drift/semver";
import { compareErrorClasses } from "./error-classes";
import { OUTCOME_ORDER } from "./outcomes";

/** The findings that mark a moment where the code started to mean something else. */
const CHANGE_KINDS: readonly DriftKind[] = ["repurposed", "behaviour", "renamed"];

export interface ReleaseRow {
  release: string;
  /**
   * The code has no sightings in this release: it is on the axis only because a finding changed
   * there (a rename away from this code). Its bars are a true zero, its shares unknown.
   */
  absent: boolean;
  calls: number;
  /** Every class / outcome series of the chart, 0 where this release had none. */
  byClass: Record<string, number>;
  byOutcome: Record<string, number>;
  /** retryable / (retryable + permanent); null when no retryability was recorded. */
  retryableShare: number | null;
  recoveryRate: number | null;
  retryAfterMedianMs: number | null;
}

export interface ChangePointFinding {
  /** 1-based number shared by the marker label and the caption. */
  n: number;
  id: string;
  kind: DriftKind;
  tool: string;
  fromRelease: string;
  sentence: string;
}

export interface ChangePoint {
  release: string;
  findings: ChangePointFinding[];
}

export interface CodeReleaseChartData {
  order: "semver" | "first_seen";
  rows: ReleaseRow[];
  classSeries: string[];
  outcomeSeries: string[];
  classTotals: Record<string, number>;
  outcomeTotals: Record<string, number>;
  /** In axis order, one per release where at least one finding's "after" side begins. */
  changePoints: ChangePoint[];
}

const outcomeRank = (o: string) => {
  const i = OUTCOME_ORDER.indexOf(o);
  return i === -1 ? OUTCOME_ORDER.length : i;
};
const compareOutcomes = (a: string, b: string) => outcomeRank(a) - outcomeRank(b) || (a < b ? -1 : a > b ? 1 : 0);

function totals(rows: ReleaseRow[], pick: (r: ReleaseRow) => Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows) for (const [k, v] of Object.entries(pick(r))) out[k] = (out[k] ?? 0) + v;
  return out;
}

const fill = (keys: string[], from: Record<string, number>) => Object.fromEntries(keys.map((k) => [k, from[k] ?? 0]));

/**
 * One row per release of the code (the drift engine's order), the class and outcome series to
 * stack, and the change points of its repurposed / behaviour-drift / renamed findings, placed on
 * the finding's "after" release. A release that only a finding names (the code was renamed away
 * there) is inserted in release order as an explicit zero.
 */
export function prepareCodeReleaseHistory(history: CodeReleaseHistory, findings: readonly DriftFinding[]): CodeReleaseChartData {
  const empty: CodeReleaseChartData = { order: history.order, rows: [], classSeries: [], outcomeSeries: [], classTotals: {}, outcomeTotals: {}, changePoints: [] };
  if (history.points.length === 0) return empty;
  const changes = findings.filter((f) => CHANGE_KINDS.includes(f.kind));

  const known = new Set(history.points.map((p) => p.release));
  const latest = Math.max(...history.points.map((p) => p.firstSeen));
  const extra = new Map<string, number>();
  for (const f of changes) {
    if (known.has(f.toRelease) || extra.has(f.toRelease)) continue;
    // Where the after side has no signature, the change can only be known to come later.
    extra.set(f.toRelease, f.after?.firstSeen ?? latest + 1);
  }
  const axis = orderReleases([
    ...history.points.map((p) => ({ release: p.release, firstSeen: p.firstSeen, point: p })),
    ...[...extra].map(([release, firstSeen]) => ({ release, firstSeen, point: null })),
  ]);

  const classSeries = [...new Set(history.points.flatMap((p) => Object.keys(p.byClass)))].sort(compareErrorClasses);
  const outcomeSeries = [...new Set(history.points.flatMap((p) => Object.keys(p.byOutcome)))].sort(compareOutcomes);
  const rows: ReleaseRow[] = axis.items.map(({ release, point: p }) => {
    if (!p) return { release, absent: true, calls: 0, byClass: fill(classSeries, {}), byOutcome: fill(outcomeSeries, {}), retryableShare: null, recoveryRate: null, retryAfterMedianMs: null };
    const claimed = p.retryable.retryable + p.retryable.permanent;
    return {
      release,
      absent: false,
      calls: p.calls,
      byClass: fill(classSeries, p.byClass),
      byOutcome: fill(outcomeSeries, p.byOutcome),
      retryableShare: claimed > 0 ? p.retryable.retryable / claimed : null,
      recoveryRate: p.recoveryRate,
      retryAfterMedianMs: p.retryAfterMedianMs,
    };
  });

  const position = new Map(rows.map((r, i) => [r.release, i]));
  const placed = changes
    .map((f, apiRank) => ({ f, apiRank, at: position.get(f.toRelease) ?? -1 }))
    .sort((a, b) => a.at - b.at || a.apiRank - b.apiRank);
  const changePoints: ChangePoint[] = [];
  placed.forEach(({ f }, i) => {
    let cp = changePoints.at(-1);
    if (!cp || cp.release !== f.toRelease) changePoints.push((cp = { release: f.toRelease, findings: [] }));
    cp.findings.push({ n: i + 1, id: f.id, kind: f.kind, tool: f.tool, fromRelease: f.fromRelease, sentence: f.sentence });
  });

  return {
    order: axis.order,
    rows,
    classSeries,
    outcomeSeries,
    classTotals: totals(rows, (r) => r.byClass),
    outcomeTotals: totals(rows, (r) => r.byOutcome),
    changePoints,
  };
}
