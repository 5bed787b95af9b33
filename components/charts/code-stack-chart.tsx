"use client";

import { countAxisProps, timeAxisProps } from "./axis-props";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { OTHER_CODES, type CodeStackData } from "@/lib/charts/code-series";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { formatCount } from "@/lib/charts/format";
import { formatBucketZoned } from "@/lib/charts/time-format";
import { codeVar, OTHER_CODES_VAR } from "@/lib/charts/palette";
import { stackTooltip } from "./chart-tooltip";

/** Attempts not ok per bucket stacked by code; a click narrows to the code. Codes never take an outcome colour. */
export function CodeStackChart({ data, stepMs, height, onSelect }: { data: CodeStackData; stepMs: number; height: number; onSelect?: (code: string) => void }) {
  const { zone } = useTimeZone();
  const color = (i: number) => (data.series[i] === OTHER_CODES ? OTHER_CODES_VAR : codeVar(i));
  const selectable = (code: string) => onSelect && !code.startsWith("(");
  return (
    <>
      <div style={{ height }}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data.rows} margin={{ top: 4, right: 8, bottom: 0, left: 0 }} barCategoryGap={1}>
            <CartesianGrid vertical={false} stroke="var(--border)" />
            <XAxis {...timeAxisProps(stepMs, zone)} />
            <YAxis {...countAxisProps("attempts not ok")} />
            <Tooltip
              cursor={{ fill: "var(--panel-2)" }}
              content={stackTooltip(
                (label) => formatBucketZoned(Number(label), stepMs, zone),
                (key, color) => (
                  <>
                    <span className="swatch" style={{ background: color }} /> {key}
                  </>
                ),
                "attempts not ok",
              )}
            />
            {data.series.map((code, i) => (
              <Bar key={code} dataKey={code} stackId="codes" fill={color(i)} isAnimationActive={false} cursor={selectable(code) ? "pointer" : undefined} onClick={selectable(code) ? () => onSelect!(code) : undefined} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <div className="legend" aria-label="Codes">
        {data.series.map((code, i) => (
          <button key={code} type="button" disabled={!selectable(code)} onClick={selectable(code) ? () => onSelect!(code) : undefined}>
            <span className="swatch" style={{ background: color(i) }} />
            <span className="mono">{code}</span>
            <span className="count">{formatCount(data.totals[code] ?? 0)}</span>
          </button>
        ))}
      </div>
    </>
  );
}
