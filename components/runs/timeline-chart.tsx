"use client";

import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { LANE_HEIGHT, type TimelineLayout } from "@/lib/charts/timeline-layout";
import { formatOffset } from "@/lib/charts/timeline-labels";
import { fitView, panView, timeTicks, visibleRows, zoomView, type TimeView } from "@/lib/charts/timeline-viewport";
import { CallLane, ToolHeader } from "./timeline-lane";
import styles from "./runs.module.css";

export interface Selection {
  row: number;
  bar: number;
}

const LABEL_WIDTH = 300;
const OVERSCAN = 8;
// Before the first measurement (and on the server) the chart assumes a typical viewport.
const ASSUMED_VIEWPORT = { height: 720, width: 900, scrollbar: 0 };

const useIsoLayoutEffect = typeof window === "undefined" ? useEffect : useLayoutEffect;

/**
 * The lanes. Rows are virtualised by hand (fixed lane height, only the rows in the scroll viewport
 * are in the DOM); bars are placed in percent of the visible time window so that the server render
 * is already correct at any width and zooming is a re-render, not a re-layout.
 */
export function TimelineChart({ layout, selected, onSelect }: { layout: TimelineLayout; selected: Selection | null; onSelect: (s: Selection | null) => void }) {
  const bounds = useMemo(() => fitView(layout.domain), [layout.domain]);
  const [view, setView] = useState<TimeView>(bounds);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(ASSUMED_VIEWPORT);
  const scroller = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; view: TimeView } | null>(null);
  const root = useRef<HTMLElement>(null);

  // Marks the moment the chart is interactive (hydrated), for the benchmark and tests.
  useEffect(() => {
    if (root.current) root.current.dataset.hydrated = "true";
  }, []);

  useEffect(() => setView(bounds), [bounds]);

  useIsoLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () =>
      setViewport({ height: el.clientHeight, width: Math.max(1, el.clientWidth - LABEL_WIDTH), scrollbar: el.offsetWidth - el.clientWidth });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const zoomBy = useCallback((factor: number, anchor?: number) => setView((v) => zoomView(v, factor, anchor ?? (v.start + v.end) / 2, bounds)), [bounds]);

  // Key presses can arrive faster than React re-renders, so the handler reads the latest selection here.
  const current = useRef(selected);
  useEffect(() => {
    current.current = selected;
  }, [selected]);
  const moveSelection = useCallback(
    (step: 1 | -1) => {
      const list = layout.failing;
      const sel = current.current;
      if (list.length === 0) return;
      const at = sel ? list.findIndex((f) => f.row === sel.row && f.bar === sel.bar) : -1;
      let next: number;
      if (at >= 0) next = (at + step + list.length) % list.length;
      else {
        // From an attempt that did not fail, go to the nearest failing one in that direction in time.
        const startOf = (f: Selection) => {
          const r = layout.rows[f.row];
          return r?.kind === "call" ? (r.bars[f.bar]?.start ?? 0) : 0;
        };
        const from = sel ? startOf(sel) : step === 1 ? -Infinity : Infinity;
        const found = step === 1 ? list.findIndex((f) => startOf(f) >= from) : list.findLastIndex((f) => startOf(f) <= from);
        next = found >= 0 ? found : step === 1 ? 0 : list.length - 1;
      }
      current.current = list[next]!;
      onSelect(list[next]!);
    },
    [layout.failing, layout.rows, onSelect],
  );

  // Bring the selected attempt into view (vertically and on the time axis), then focus it.
  useEffect(() => {
    if (!selected) return;
    const row = layout.rows[selected.row];
    const el = scroller.current;
    if (!row || row.kind !== "call" || !el) return;
    if (row.y < el.scrollTop || row.y + LANE_HEIGHT > el.scrollTop + el.clientHeight) {
      el.scrollTop = Math.max(0, row.y - el.clientHeight / 2);
    }
    const bar = row.bars[selected.bar];
    if (!bar) return;
    setView((v) => {
      const lo = Math.min(bar.start, bar.end);
      const hi = Math.max(bar.start, bar.end);
      return hi < v.start || lo > v.end ? panView(v, (lo + hi) / 2 - (v.start + v.end) / 2, bounds) : v;
    });
    const frame = requestAnimationFrame(() => {
      el.querySelector<HTMLElement>(`[data-span-id="${CSS.escape(bar.spanId)}"]`)?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [selected, layout.rows, bounds]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      const actions: Record<string, () => void> = {
        j: () => moveSelection(1),
        ArrowRight: () => moveSelection(1),
        k: () => moveSelection(-1),
        ArrowLeft: () => moveSelection(-1),
        "+": () => zoomBy(0.5),
        "=": () => zoomBy(0.5),
        "-": () => zoomBy(2),
        "0": () => setView(bounds),
        Escape: () => onSelect(null),
      };
      const action = actions[e.key];
      if (action) {
        e.preventDefault();
        action();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [bounds, moveSelection, onSelect, zoomBy]);

  const timeAt = (clientX: number) => {
    const rect = scroller.current?.getBoundingClientRect();
    if (!rect) return (view.start + view.end) / 2;
    const x = clientX - rect.left - LABEL_WIDTH;
    return view.start + (x / viewport.width) * (view.end - view.start);
  };

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // Registered by hand: React's wheel listener is passive and cannot stop the page from zooming.
    const onWheel = (e: WheelEvent) => {
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        const rect = el.getBoundingClientRect();
        setView((v) => {
          const anchor = v.start + ((e.clientX - rect.left - LABEL_WIDTH) / Math.max(1, rect.width - LABEL_WIDTH)) * (v.end - v.start);
          return zoomView(v, Math.exp(e.deltaY * 0.002), anchor, bounds);
        });
      } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        e.preventDefault();
        const delta = e.shiftKey && e.deltaX === 0 ? e.deltaY : e.deltaX;
        setView((v) => panView(v, (delta / Math.max(1, el.clientWidth - LABEL_WIDTH)) * (v.end - v.start), bounds));
      }
    };
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => el.removeEventListener("wheel", onWheel);
  }, [bounds]);

  const { first, end } = visibleRows(scrollTop, viewport.height, layout.rows.length, LANE_HEIGHT, OVERSCAN);
  const span = Math.max(1, view.end - view.start);
  const pct = (ms: number) => ((ms - view.start) / span) * 100;
  const pxPerMs = viewport.width / span;
  const ticks = timeTicks(view, viewport.width);
  const lines: { key: string; at: number; cls: string; label: string }[] = [];
  if (layout.deadline !== null) lines.push({ key: "deadline", at: layout.deadline, cls: styles.deadline!, label: `deadline ${formatOffset(layout.deadline)}` });
  if (layout.runEnd !== null) lines.push({ key: "end", at: layout.runEnd, cls: styles.runEnd!, label: "run ended" });
  if (!layout.runRecordMissing) lines.push({ key: "start", at: 0, cls: styles.runStart!, label: "run started" });

  return (
    <section aria-label="Retry timeline" ref={root} data-testid="timeline">
      <div className={styles.toolbar}>
        <button type="button" className={styles.btn} onClick={() => zoomBy(0.5)} aria-label="Zoom in">
          + zoom in
        </button>
        <button type="button" className={styles.btn} onClick={() => zoomBy(2)} aria-label="Zoom out">
          − zoom out
        </button>
        <button type="button" className={styles.btn} onClick={() => setView(bounds)}>
          fit
        </button>
        <span className={styles.keys}>
          <kbd>j</kbd>/<kbd>→</kbd> next failing attempt · <kbd>k</kbd>/<kbd>←</kbd> previous · <kbd>+</kbd>/<kbd>−</kbd> zoom ·{" "}
          <kbd>0</kbd> fit · drag or <kbd>shift</kbd>+wheel to pan · <kbd>ctrl</kbd>+wheel to zoom · <kbd>Tab</kbd> moves through attempts
        </span>
      </div>
      <div className={styles.chart} style={{ ["--label-w" as string]: `${LABEL_WIDTH}px` }}>
        <div className={styles.axis} aria-hidden="true" style={{ paddingRight: viewport.scrollbar }}>
          <div className={styles.label}>
            <span className={styles.muted}>{layout.rows.length} rows · time from run start</span>
          </div>
          <div className={styles.axisTrack}>
            {ticks.map((t) => (
              <span key={t} className={styles.tick} style={{ left: `${pct(t)}%` }}>
                {formatOffset(t)}
              </span>
            ))}
          </div>
        </div>
        <div style={{ position: "relative" }}>
          <div
            ref={scroller}
            className={styles.scroller}
            data-testid="timeline-scroller"
            onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
            onPointerDown={(e) => {
              if ((e.target as HTMLElement).closest("button") || e.clientX - e.currentTarget.getBoundingClientRect().left < LABEL_WIDTH) return;
              drag.current = { x: e.clientX, view };
              e.currentTarget.setPointerCapture(e.pointerId);
            }}
            onPointerMove={(e) => {
              const d = drag.current;
              if (!d) return;
              setView(panView(d.view, ((d.x - e.clientX) / viewport.width) * (d.view.end - d.view.start), bounds));
            }}
            onPointerUp={() => (drag.current = null)}
            onDoubleClick={(e) => {
              if (!(e.target as HTMLElement).closest("button")) zoomBy(0.5, timeAt(e.clientX));
            }}
          >
            <div className={styles.canvas} style={{ height: layout.height }}>
              {layout.rows.slice(first, end).map((row) =>
                row.kind === "tool" ? (
                  <ToolHeader key={`t-${row.index}`} row={row} budget={layout.budgets.find((b) => b.tool === row.tool)} />
                ) : (
                  <CallLane
                    key={`c-${row.index}`}
                    row={row}
                    view={view}
                    pct={pct}
                    pxPerMs={pxPerMs}
                    selectedBar={selected?.row === row.index ? selected.bar : null}
                    onSelect={(bar) => onSelect({ row: row.index, bar })}
                  />
                ),
              )}
            </div>
          </div>
          <div className={styles.overlay} aria-hidden="true" style={{ right: viewport.scrollbar }}>
            {lines.map((l) =>
              l.at >= view.start && l.at <= view.end ? (
                <div key={l.key} className={`${styles.vline} ${l.cls}`} style={{ left: `${pct(l.at)}%` }} data-testid={`line-${l.key}`}>
                  {l.key === "deadline" ? <span className={styles.vlineLabel} style={{ color: "var(--o-failed)" }}>{l.label}</span> : null}
                </div>
              ) : null,
            )}
          </div>
        </div>
      </div>
    </section>
  );
}
