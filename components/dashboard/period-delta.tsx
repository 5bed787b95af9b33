import type { ReactNode } from "react";
import { formatCount, formatPct, formatRatio } from "@/lib/charts/format";

// How a stat tile says what its figure was in the previous period of equal length (`compare=previous`),
// shared by every page that compares so that the same change reads the same everywhere.

/**
 * A count's change in percent, the previous value in brackets: "+12% vs previous (34)". A percent of
 * zero means nothing, so a count that was zero is "new" (or unchanged) instead.
 */
export function countDelta(now: number, before: number): string {
  if (before === 0) return now === 0 ? "no change vs previous period" : "new vs previous period (was 0)";
  const pct = ((now - before) / before) * 100;
  return `${pct >= 0 ? "+" : "−"}${Math.abs(pct).toFixed(0)}% vs previous (${formatCount(before)})`;
}

/**
 * A rate's change in percentage points, never a percent of a percent: "+1.5 pts vs previous (3.0%)".
 * Without a rate on either side (no attempts) only the previous value can be said.
 */
export function rateDelta(now: number | null, before: number | null): string {
  if (now === null || before === null) return `previous period: ${formatPct(before)}`;
  const pts = (now - before) * 100;
  return `${pts >= 0 ? "+" : "−"}${Math.abs(pts).toFixed(1)} pts vs previous (${formatPct(before)})`;
}

/** A mean's change in its own unit: "+0.25 vs previous (1.00)" for attempts per call. */
export function ratioDelta(now: number | null, before: number | null): string {
  if (now === null || before === null) return `previous period: ${formatRatio(before)}`;
  const diff = now - before;
  return `${diff >= 0 ? "+" : "−"}${formatRatio(Math.abs(diff))} vs previous (${formatRatio(before)})`;
}

/** The comparison line under a tile's hint. */
export function PeriodDelta({ children }: { children: ReactNode }) {
  return <span className="delta">{children}</span>;
}

/** The checkbox that adds previous-period figures to the tiles; the page keeps it in the URL. */
export function CompareToggle({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="toggle">
      <input type="checkbox" name="compare" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      Compare with the previous period
    </label>
  );
}
