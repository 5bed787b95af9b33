import type { ReactNode } from "react";

// Room for the legend row under a chart, reserved in every state.
const LEGEND_ROOM = 30;

export type ChartState = "loading" | "error" | "empty" | "ready";

/**
 * Reserves the chart's height in every state, so loading, empty, error and data never shift the
 * layout. Empty says what it means; the caller words it (zero versus no data).
 */
export function ChartFrame({ height, state, message, children, label }: { height: number; state: ChartState; message?: string; children?: ReactNode; label: string }) {
  return (
    <div className="chart-frame" style={{ minHeight: height + LEGEND_ROOM, ["--chart-height" as string]: `${height}px` }} role="figure" aria-label={label} aria-busy={state === "loading"}>
      {state === "ready" && children}
      {state === "loading" && <div className="chart-state skeleton" data-testid="chart-skeleton" aria-label="loading" />}
      {state === "empty" && <div className="chart-state">{message ?? "No data in this range."}</div>}
      {state === "error" && (
        <div className="chart-state error" role="alert">
          {message ?? "Could not load this chart."}
        </div>
      )}
    </div>
  );
}
