"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { AdoptionChartData, AdoptionRow } from "@/lib/charts/adoption";
import { formatCountOf, formatPct } from "@/lib/charts/format";
import { codeVar } from "@/lib/charts/palette";
import { formatUtcDay } from "@/lib/charts/time-format";
import { ChartTooltipBody } from "./chart-tooltip";

/** The share of each day's runs on each release, stacked to 100%; a day without runs has no bar (a gap, said so in its tooltip). */
export function AdoptionChart({ data, height, highlight }: { data: AdoptionChartData; height: number; highlight?: string }) {
  return (
    <div style={{ height }} data-testid="adoption-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data.rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} barCategoryGap="10%">
          <CartesianGrid vertical={false} stroke="var(--border)" />
          <XAxis dataKey="at" tickFormatter={(v: number) => formatUtcDay(v).slice(5)} tickLine={false} axisLine={{ stroke: "var(--border)" }} tick={{ fontSize: 11 }} minTickGap={16} />
          <YAxis domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} tickFormatter={(v: number) => formatPct(v, 0)} width={44} tickLine={false} axisLine={false} />
          <Tooltip
            cursor={{ fill: "var(--panel-2)" }}
            content={({ active, payload }) => {
              const row = active ? (payload?.[0]?.payload as AdoptionRow | undefined) : undefined;
              if (!row) return null;
              return (
                <ChartTooltipBody
                  title={`${formatUtcDay(row.at)} (UTC)`}
                  rows={
                    row.gap
                      ? [{ key: "gap", label: "runs", value: "none this day (gap)" }]
                      : [
                          ...[...data.series].reverse().map((s) => ({ key: s.key, label: s.label, value: `${formatPct(row.shares[s.key] ?? 0, 0)} (${formatCountOf(row.runs[s.key] ?? 0, "run")})` })),
                          { key: "total", label: "all runs", value: formatCountOf(row.total, "run") },
                        ]
                  }
                />
              );
            }}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {data.series.map((s, i) => (
            <Bar
              key={s.key}
              // A function, not a string: a release label's dots would read as a property path.
              dataKey={(r: AdoptionRow) => r.shares[s.key]}
              name={s.label}
              stackId="runs"
              fill={codeVar(i)}
              fillOpacity={highlight === undefined || highlight === s.key ? 1 : 0.45}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
