"use client";

import { countAxisProps } from "./axis-props";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { DelayBar } from "@/lib/charts/delay-histogram";
import { formatCountOf } from "@/lib/charts/format";
import { ChartTooltipBody } from "./chart-tooltip";

const NAMES: Record<string, string> = { retryAfter: "retry_after asked", backoff: "backoff waited" };

/** How long tools asked to wait next to how long the runtime really waited, per delay bucket. */
export function DelayHistogramChart({ bars, height }: { bars: DelayBar[]; height: number }) {
  return (
    <div style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={bars} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
          <defs>
            <pattern id="fill-backoff" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">
              <rect width="6" height="6" fill="var(--c-backoff)" opacity="0.35" />
              <line x1="0" y1="0" x2="0" y2="6" stroke="var(--c-backoff)" strokeWidth="3" />
            </pattern>
          </defs>
          <CartesianGrid vertical={false} stroke="var(--border)" />
          <XAxis dataKey="label" tickLine={false} interval={0} angle={-40} textAnchor="end" height={54} tick={{ fontSize: 11 }} axisLine={{ stroke: "var(--border)" }} />
          <YAxis {...countAxisProps("attempts")} />
          <Tooltip
            cursor={{ fill: "var(--panel-2)" }}
            content={({ active, payload, label }) =>
              active && payload?.length ? (
                <ChartTooltipBody
                  title={`delay ${String(label)}`}
                  rows={payload.filter((p) => Number(p.value) !== 0).map((p) => ({ key: String(p.dataKey), label: NAMES[String(p.dataKey)] ?? String(p.dataKey), value: formatCountOf(Number(p.value), "attempt") }))}
                />
              ) : null
            }
          />
          <Legend formatter={(v: string) => NAMES[v] ?? v} wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="retryAfter" fill="var(--c-retry-after)" isAnimationActive={false} />
          <Bar dataKey="backoff" fill="url(#fill-backoff)" stroke="var(--c-backoff)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
