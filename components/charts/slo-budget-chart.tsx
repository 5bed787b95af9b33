"use client";

import { Area, AreaChart, CartesianGrid, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import type { SloBudgetChartData, SloBudgetRow } from "@/lib/charts/slo-budget";
import { formatCountOf } from "@/lib/charts/format";
import { formatBucketZoned } from "@/lib/charts/time-format";
import { timeAxisProps } from "./axis-props";
import { ChartTooltipBody } from "./chart-tooltip";

const HOUR = 3_600_000;

/** An SLO's error budget left, hour by hour over its window; the zero line marks a spent budget. */
export function SloBudgetChart({ data, height }: { data: SloBudgetChartData; height: number }) {
  const { zone } = useTimeZone();
  return (
    <div style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={data.rows} margin={{ top: 4, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid vertical={false} stroke="var(--border)" />
          <XAxis {...timeAxisProps(HOUR, zone)} />
          <YAxis
            domain={data.domain}
            width={48}
            tickLine={false}
            axisLine={false}
            tickFormatter={(v: number) => `${v}%`}
            label={{ value: "budget left", angle: -90, position: "insideLeft", offset: 10, style: { fontSize: 11, fill: "var(--muted)" } }}
          />
          <ReferenceLine y={0} stroke="var(--danger)" strokeDasharray="4 3" />
          <Tooltip
            content={({ active, payload }) => {
              const row = active ? (payload?.[0]?.payload as SloBudgetRow | undefined) : undefined;
              if (!row) return null;
              return (
                <ChartTooltipBody
                  title={formatBucketZoned(row.t, HOUR, zone)}
                  rows={[
                    { key: "left", label: "budget left", value: `${row.left}%` },
                    { key: "bad", label: "bad calls this hour", value: formatCountOf(row.bad, "call") },
                    { key: "calls", label: "calls this hour", value: formatCountOf(row.calls, "call") },
                  ]}
                />
              );
            }}
          />
          <Area dataKey="left" type="stepAfter" stroke="var(--series-1)" fill="var(--series-1)" fillOpacity={0.15} isAnimationActive={false} />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
