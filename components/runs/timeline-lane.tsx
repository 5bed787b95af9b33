import { Fragment } from "react";
import type { CallRow, ToolBudget, ToolRow } from "@/lib/charts/timeline-layout";
import { formatCount, formatCountOf } from "@/lib/charts/format";
import { FLAG_LABELS, formatDuration } from "@/lib/charts/timeline-labels";
import type { TimeView } from "@/lib/charts/timeline-viewport";
import styles from "./runs.module.css";

const rowStyle = (y: number) => ({ top: y });
// Bold 10.5px labels average ~6.3px per character; padding 8px.
const labelPx = (text: string) => text.length * 6.3 + 8;

/** Where the next attempt of the lane starts after `t` (or +∞), to know how much room a label has. */
function nextStart(row: CallRow, t: number): number {
  let next = Infinity;
  for (const b of row.bars) {
    const lo = Math.min(b.start, b.end);
    if (lo > t && lo < next) next = lo;
  }
  return next;
}

export function ToolHeader({ row, budget }: { row: ToolRow; budget: ToolBudget | undefined }) {
  return (
    <div className={`${styles.row} ${styles.toolRow}`} style={rowStyle(row.y)} data-testid="tool-row" data-tool={row.tool}>
      <div className={styles.label}>{row.tool}</div>
      <div className={styles.toolMeta}>
        {formatCountOf(row.calls, "call")} · {formatCount(row.retriesUsed)} of {budget?.budget ?? "?"} retries used
        {budget?.assumed ? " (budget assumed)" : ""}
        {budget && row.retriesUsed >= budget.budget ? " · budget used up" : ""}
      </div>
    </div>
  );
}

interface LaneProps {
  row: CallRow;
  view: TimeView;
  pct: (ms: number) => number;
  pxPerMs: number;
  selectedBar: number | null;
  onSelect: (bar: number) => void;
}

/** One tool call: its attempts as bars, the waits between them, and its final decision in words. */
export function CallLane({ row, view, pct, pxPerMs, selectedBar, onSelect }: LaneProps) {
  const flagged = row.missingAttempts.length > 0 || row.bars.some((b) => b.flags.length > 0);
  const visible = (a: number, b: number) => Math.max(a, b) >= view.start && Math.min(a, b) <= view.end;
  return (
    <div className={styles.row} style={rowStyle(row.y)} data-testid="call-lane" data-call-id={row.callId} data-tool={row.tool}>
      <div className={styles.label}>
        <span className={styles.callId} title={row.callId}>
          {row.callId}
        </span>
        {flagged ? (
          <span className={styles.warn} title={row.missingAttempts.length ? `missing attempt numbers: ${row.missingAttempts.map(([a, b]) => (a === b ? a : `${a}–${b}`)).join(", ")}` : "incomplete data"}>
            ⚠
          </span>
        ) : null}
        <span className={styles.final} data-kind={row.final.kind} data-testid="final-decision">
          {row.final.label}
        </span>
      </div>
      <div className={styles.track}>
        {row.gaps.map((g, i) => {
          const lo = Math.min(g.from, g.to);
          const hi = Math.max(g.from, g.to);
          const widthPx = (hi - lo) * pxPerMs;
          return (
            <div key={`g${i}`}>
              {visible(lo, hi) ? (
                <div className={styles.gap} data-negative={g.waitedMs < 0} style={{ left: `${pct(lo)}%`, width: `${pct(hi) - pct(lo)}%` }} data-testid="backoff-gap">
                  {widthPx > 160 ? (
                    <span className={styles.gapLabel}>{g.waitedMs < 0 ? `overlap ${formatDuration(-g.waitedMs)}` : `waited ${formatDuration(g.waitedMs)}`}</span>
                  ) : null}
                </div>
              ) : null}
              {g.retryAfterAt !== null && visible(g.retryAfterAt, g.retryAfterAt) ? (
                <div
                  className={styles.retryAfter}
                  style={{ left: `${pct(g.retryAfterAt)}%` }}
                  title={`retry_after asked: ${formatDuration(g.retryAfterMs ?? 0)}`}
                  data-testid="retry-after-marker"
                />
              ) : null}
            </div>
          );
        })}
        {row.bars.map((b, i) => {
          if (!visible(b.start, b.end)) return null;
          const lo = Math.min(b.start, b.end);
          const hi = Math.max(b.start, b.end);
          const flagText = b.flags.map((f) => FLAG_LABELS[f] ?? f).join("; ");
          const codeText = b.code === null ? "" : `code ${b.code}, ${b.codeSource ?? ""}`;
          const hint = [codeText, flagText].filter(Boolean).join("; ");
          const text = `${b.flags.length ? "⚠ " : ""}${b.label}`;
          const need = labelPx(text);
          const widthPx = (hi - lo) * pxPerMs;
          // A bar too narrow for its label gets it beside it, when the lane has room before the next bar.
          const outside = widthPx < need && (nextStart(row, hi) - hi) * pxPerMs >= need + 6;
          return (
            <Fragment key={b.spanId}>
              <button
                type="button"
                className={styles.bar}
                data-span-id={b.spanId}
                data-outcome={b.outcome ?? "unknown"}
                data-flagged={b.flags.length > 0}
                data-code-source={b.codeSource ?? undefined}
                data-testid="attempt-bar"
                aria-pressed={selectedBar === i}
                aria-label={`${row.tool} call ${row.callId} attempt ${b.label}${flagText ? ` (${flagText})` : ""}`}
                title={hint || undefined}
                style={{ left: `${pct(lo)}%`, width: `${pct(hi) - pct(lo)}%` }}
                onClick={() => onSelect(i)}
              >
                {outside ? null : text}
              </button>
              {outside ? (
                <span className={styles.outsideLabel} data-outcome={b.outcome ?? "unknown"} style={{ left: `calc(${pct(hi)}% + 3px)` }} aria-hidden="true">
                  {text}
                </span>
              ) : null}
            </Fragment>
          );
        })}
      </div>
    </div>
  );
}
