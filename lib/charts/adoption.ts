import type { ReleasesAnswer } from "@/lib/contracts/releases";

/** The series key of runs on releases outside the newest few (and of runs that named no release). */
export const OTHER_RELEASES = "\u0000other";

export interface AdoptionSeries {
  key: string;
  label: string;
}

/** One day: its runs per series and their shares; a day without runs is a gap (no shares), not a zero. */
export interface AdoptionRow {
  at: number;
  total: number;
  gap: boolean;
  runs: Record<string, number>;
  /** Share of the day's runs per series key (0–1); null on a gap. */
  shares: Record<string, number | null>;
}

export interface AdoptionChartData {
  series: AdoptionSeries[];
  rows: AdoptionRow[];
  /** No run in the whole window. */
  empty: boolean;
}

/**
 * The share of each day's runs on each release: one series per release among the newest
 * `maxReleases` seen in the window (in release order, oldest first, so a rollout stacks on top), the
 * rest and runs without a release summed as "other releases". Every day of the window gets a row.
 */
export function prepareAdoption(adoption: ReleasesAnswer["adoption"], releaseOrder: readonly string[], maxReleases = 5): AdoptionChartData {
  const seen = new Set<string>();
  for (const d of adoption.days) for (const [r, n] of Object.entries(d.runs)) if (n > 0 && r !== "") seen.add(r);
  const ordered = releaseOrder.filter((r) => seen.has(r));
  // A release with runs but no spans is not in the drift order: it goes before the ordered ones, by name.
  const unordered = [...seen].filter((r) => !releaseOrder.includes(r)).sort();
  const all = [...unordered, ...ordered];
  const shown = all.slice(Math.max(0, all.length - maxReleases));
  const hasOther = adoption.days.some((d) => Object.entries(d.runs).some(([r, n]) => n > 0 && !shown.includes(r)));
  const series: AdoptionSeries[] = [...shown.map((r) => ({ key: r, label: r })), ...(hasOther ? [{ key: OTHER_RELEASES, label: "other releases" }] : [])];
  const byDay = new Map(adoption.days.map((d) => [d.at, d.runs]));
  const rows: AdoptionRow[] = [];
  for (let at = adoption.from; at < adoption.to; at += adoption.stepMs) {
    const runs: Record<string, number> = Object.fromEntries(series.map((s) => [s.key, 0]));
    let total = 0;
    for (const [r, n] of Object.entries(byDay.get(at) ?? {})) {
      const key = shown.includes(r) ? r : OTHER_RELEASES;
      runs[key] = (runs[key] ?? 0) + n;
      total += n;
    }
    const shares = Object.fromEntries(series.map((s) => [s.key, total === 0 ? null : (runs[s.key] ?? 0) / total]));
    rows.push({ at, total, gap: total === 0, runs, shares });
  }
  return { series, rows, empty: rows.every((r) => r.gap) };
}
