"use client";

import type { ReactNode } from "react";
import { Bar, CartesianGrid, ComposedChart, Line, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { changePointLabel } from "@/components/drift/labels";
import type { CodeReleaseChartData, ReleaseRow } from "@/lib/charts/code-release-history";
import { classOutcome, errorClassColor, errorClassLabel } from "@/lib/charts/error-classes";
import { formatCount, formatPct } from "@/lib/charts/format";
import { outcomeStyle } from "@/lib/charts/outcomes";
import { ChartTooltipBody } from "./chart-tooltip";
import { OutcomePatternDefs, OutcomeSwatch, outcomeFill } from "./fill-patterns";

export type ReleaseBreakdown = "class" | "outcome";

const SHARE_COLOR = "var(--accent)";
const LEGEND_ITEM = { display: "inline-flex", gap: 5, alignItems: "center", fontSize: 12, padding: "1px 4px" } as const;

interface Look {
  label: (key: string) => string;
  fill: (key: string) => string;
  stroke: (key: string) => string;
  swatch: (key: string) => ReactNode;
  values: (row: ReleaseRow) => Record<string, number>;
}

// Classes borrow the look of the outcome they produce, so declined and refused stay apart here too.
const LOOKS: Record<ReleaseBreakdown, Look> = {
  class: {
    label: errorClassLabel,
    fill: (c) => outcomeFill(classOutcome(c)),
    stroke: errorClassColor,
    swatch: (c) => <OutcomeSwatch outcome={classOutcome(c)} />,
    values: (r) => r.byClass,
  },
  outcome: {
    label: (o) => outcomeStyle(o).label,
    fill: outcomeFill,
    stroke: (o) => outcomeStyle(o).color,
    swatch: (o) => <OutcomeSwatch outcome={o} />,
    values: (r) => r.byOutcome,
  },
};

/**
 * One bar per release stacked by error class or by outcome, with the retryable share as a line on
 * the class view and a vertical marker where each drift finding's "after" release begins.
 */
export function CodeReleaseChart({ data, breakdown, height }: { data: CodeReleaseChartData; breakdown: ReleaseBreakdown; height: number }) {
  const look = LOOKS[breakdown];
  const series = breakdown === "class" ? data.classSeries : data.outcomeSeries;
  const seriesTotals = breakdown === "class" ? data.classTotals : data.outcomeTotals;
  const withShare = breakdown === "class";
  return (
    <>
      <div style={{ height }} data-testid={`release-chart-${breakdown}`}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data.rows} margin={{ top: 18, right: 8, bottom: 0, left: 0 }} barCategoryGap="20%">
            <OutcomePatternDefs />
            <CartesianGrid vertical={false} stroke="var(--border)" />
            <XAxis dataKey="release" interval={0} tickLine={false} axisLine={{ stroke: "var(--border)" }} tick={{ fontSize: 11, fontFamily: "var(--mono)" }} />
            <YAxis yAxisId="count" allowDecimals={false} width={48} tickLine={false} axisLine={false} label={{ value: "sightings", angle: -90, position: "insideLeft", offset: 10, style: { fontSize: 11, fill: "var(--muted)" } }} />
            {withShare && (
              <YAxis yAxisId="share" orientation="right" domain={[0, 1]} ticks={[0, 0.5, 1]} tickFormatter={(v: number) => formatPct(v, 0)} width={40} tickLine={false} axisLine={false} />
            )}
            <Tooltip
              cursor={{ fill: "var(--panel-2)" }}
              content={({ active, label }) => {
                const row = active ? data.rows.find((r) => r.release === label) : undefined;
                if (!row) return null;
                const values = look.values(row);
                return (
                  <ChartTooltipBody
                    title={`release ${row.release}`}
                    rows={
                      row.absent
                        ? [{ key: "absent", label: "this code", value: "no sightings in this release (zero)" }]
                        : [
                            ...[...series].reverse().map((k) => ({ key: k, label: <>{look.swatch(k)} {look.label(k)}</>, value: formatCount(values[k] ?? 0) })),
                            { key: "calls", label: "calls with this code", value: formatCount(row.calls) },
                            { key: "share", label: "retryable share", value: row.retryableShare === null ? "no claim recorded" : formatPct(row.retryableShare, 0) },
                          ]
                    }
                  />
                );
              }}
            />
            {series.map((k) => (
              <Bar
                key={k}
                yAxisId="count"
                name={look.label(k)}
                dataKey={(r: ReleaseRow) => look.values(r)[k] ?? 0}
                stackId="release"
                fill={look.fill(k)}
                stroke={look.stroke(k)}
                strokeWidth={look.fill(k).startsWith("url(") ? 1 : 0}
                isAnimationActive={false}
              />
            ))}
            {withShare && (
              <Line yAxisId="share" name="retryable share" dataKey="retryableShare" stroke={SHARE_COLOR} strokeWidth={2} strokeDasharray="4 3" dot={{ r: 3, fill: SHARE_COLOR }} connectNulls={false} isAnimationActive={false} />
            )}
            {data.changePoints.map((cp) => (
              <ReferenceLine
                key={cp.release}
                yAxisId="count"
                x={cp.release}
                position="start"
                stroke="var(--danger)"
                strokeWidth={2}
                strokeDasharray="6 3"
                label={{ value: changePointLabel(cp), position: "top", fill: "var(--danger)", fontSize: 11, fontWeight: 600 }}
              />
            ))}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <div className="legend" aria-label={breakdown === "class" ? "Error classes" : "Outcomes by release"}>
        {series.map((k) => (
          <span key={k} style={LEGEND_ITEM} data-series={k}>
            {look.swatch(k)}
            {look.label(k)}
            <span className="count">{formatCount(seriesTotals[k] ?? 0)}</span>
          </span>
        ))}
        {withShare && (
          <span style={LEGEND_ITEM}>
            <svg width="18" height="12" aria-hidden="true">
              <line x1="0" y1="6" x2="18" y2="6" stroke={SHARE_COLOR} strokeWidth="2" strokeDasharray="4 3" />
            </svg>
            retryable share (right axis)
          </span>
        )}
      </div>
    </>
  );
}
