import { formatBucket } from "@/lib/charts/time-format";
import type { TimeZone } from "@/lib/charts/time-zone";

/** The count axis every bar chart shares: whole numbers, a rotated unit label. */
export function countAxisProps(unit: string) {
  return {
    allowDecimals: false,
    width: 48,
    tickLine: false,
    axisLine: false,
    label: { value: unit, angle: -90, position: "insideLeft" as const, offset: 10, style: { fontSize: 11, fill: "var(--muted)" } },
  };
}

/** The time axis of bucketed series: bucket starts formatted for the bucket size, on `zone`'s clock. */
export function timeAxisProps(stepMs: number, zone: TimeZone) {
  return {
    dataKey: "t",
    tickFormatter: (t: number) => formatBucket(t, stepMs, zone),
    minTickGap: 40,
    tickLine: false,
    axisLine: { stroke: "var(--border)" },
  };
}
