"use client";

import { countAxisProps, timeAxisProps } from "./axis-props";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { formatCount } from "@/lib/charts/format";
import { formatBucketZoned } from "@/lib/charts/time-format";
import type { OutcomeChartData } from "@/lib/charts/outcome-series";
import { outcomeStyle } from "@/lib/charts/outcomes";
import { stackTooltip } from "./chart-tooltip";
import { OutcomePatternDefs, OutcomeSwatch, outcomeFill } from "./fill-patterns";

/** Attempts per bucket stacked by outcome; a click on a bar or a legend entry narrows to that outcome. */
export function OutcomeChart({ data, stepMs, height, onSelect }: { data: OutcomeChartData; stepMs: number; height: number; onSelect?: (outcome: string) => void }) {
  const { zone } = useTimeZone();
  return (
    <>
      <div style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data.rows} margin={{ top: 4, right: 8, bottom: 0, left: 0 }} barCategoryGap={1}>
            <OutcomePatternDefs />
            <CartesianGrid vertical={false} stroke="var(--border)" />
            <XAxis {...timeAxisProps(stepMs, zone)} />
            <YAxis {...countAxisProps("attempts")} />
            <Tooltip
              cursor={{ fill: "var(--panel-2)" }}
              content={stackTooltip(
                (label) => formatBucketZoned(Number(label), stepMs, zone),
                (key) => (
                  <>
                    <OutcomeSwatch outcome={key} /> {outcomeStyle(key).label}
                  </>
                ),
                "attempts",
              )}
            />
            {data.series.map((outcome) => (
              <Bar
                key={outcome}
                dataKey={outcome}
                stackId="outcomes"
                fill={outcomeFill(outcome)}
                stroke={outcomeStyle(outcome).color}
                strokeWidth={outcome === "declined" || outcome === "refused" ? 1 : 0}
                isAnimationActive={false}
                cursor={onSelect ? "pointer" : undefined}
                onClick={onSelect ? () => onSelect(outcome) : undefined}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <div className="legend" aria-label="Outcomes">
        {data.series.map((outcome) => (
          <button key={outcome} type="button" onClick={onSelect ? () => onSelect(outcome) : undefined} disabled={!onSelect} title={onSelect ? `Show only ${outcomeStyle(outcome).label}` : undefined} data-outcome={outcome}>
            <OutcomeSwatch outcome={outcome} />
            {outcomeStyle(outcome).label}
            <span className="count">{formatCount(data.totals[outcome] ?? 0)}</span>
          </button>
        ))}
      </div>
    </>
  );
}
