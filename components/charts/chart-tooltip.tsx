import type { ReactNode } from "react";
import { formatCount } from "@/lib/charts/format";

export interface TooltipRow {
  key: string;
  label: ReactNode;
  value: string;
}

/** The one tooltip look of every chart: a title and label/value rows with units. */
export function ChartTooltipBody({ title, rows }: { title: string; rows: TooltipRow[] }) {
  return (
    <div className="tooltip">
      <div style={{ fontWeight: 600, marginBottom: 4 }}>{title}</div>
      {rows.map((r) => (
        <div className="row" key={r.key}>
          <span>{r.label}</span>
          <span>{r.value}</span>
        </div>
      ))}
    </div>
  );
}

interface StackPayloadItem {
  dataKey?: unknown;
  value?: unknown;
  color?: string;
}

/**
 * Tooltip content for a stacked time series: the bucket as title, one row per series from top to
 * bottom, a null value said as "no data yet" (a gap, not a zero). Series with zero in the bucket are
 * left out (the legend lists every series); a bucket where all are zero says so once.
 */
export function stackTooltip(title: (label: unknown) => string, rowLabel: (key: string, color: string | undefined) => ReactNode, unit: string) {
  return function StackTooltip({ active, payload, label }: { active?: boolean; payload?: readonly StackPayloadItem[]; label?: unknown }) {
    if (!active || !payload?.length) return null;
    const gap = payload.every((p) => p.value === null);
    const shown = [...payload].reverse().filter((p) => p.value === null ? gap : Number(p.value) !== 0);
    if (shown.length === 0) return <ChartTooltipBody title={title(label)} rows={[{ key: "none", label: "nothing", value: `0 ${unit}` }]} />;
    return (
      <ChartTooltipBody
        title={title(label)}
        rows={(gap ? shown.slice(0, 1) : shown).map((p) => ({
          key: String(p.dataKey),
          label: gap ? "all series" : rowLabel(String(p.dataKey), p.color),
          value: p.value === null ? "no data yet" : `${formatCount(Number(p.value))} ${unit}`,
        }))}
      />
    );
  };
}
