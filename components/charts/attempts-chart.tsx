"use client";

import { Bar, BarChart, CartesianGrid, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { AttemptsBar } from "@/lib/charts/attempts";
import { formatCountOf } from "@/lib/charts/format";
import { ChartTooltipBody } from "./chart-tooltip";

/** Calls by the number of attempts they needed. */
export function AttemptsChart({ bars, height }: { bars: AttemptsBar[]; height: number }) {
  return (
    <div style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={bars} layout="vertical" margin={{ top: 4, right: 48, bottom: 0, left: 8 }}>
          <CartesianGrid horizontal={false} stroke="var(--border)" />
          <XAxis type="number" allowDecimals={false} tickLine={false} axisLine={false} />
          <YAxis type="category" dataKey="label" width={96} tickLine={false} axisLine={false} />
          <Tooltip
            cursor={{ fill: "var(--panel-2)" }}
            content={({ active, payload }) =>
              active && payload?.[0] ? (
                <ChartTooltipBody title={String((payload[0].payload as AttemptsBar).label)} rows={[{ key: "calls", label: "calls", value: formatCountOf(Number(payload[0].value), "call") }]} />
              ) : null
            }
          />
          <Bar dataKey="calls" fill="var(--series-1)" isAnimationActive={false} barSize={22}>
            <LabelList dataKey="calls" position="right" style={{ fontSize: 11, fill: "var(--muted)" }} />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
