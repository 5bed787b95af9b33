"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { timelineMarkers } from "@/lib/charts/timeline-markers";
import type { ToldArrow } from "@/lib/charts/told-arrows";
import type { TimelineSelection } from "@/lib/charts/timeline-navigation";
import { LANE_HEIGHT, type TimelineLayout } from "@/lib/charts/timeline-types";
import { fitView, timeTicks, unionView, visibleRows } from "@/lib/charts/timeline-viewport";
import { TimelineAxis } from "./timeline/timeline-axis";
import { OffscreenMarks, TimelineMarkers } from "./timeline/timeline-markers";
import { TimelineToolbar } from "./timeline/timeline-toolbar";
import { ToldArrows } from "./timeline/told-arrows";
import { useFailingNavigation } from "./timeline/use-failing-navigation";
import { usePointerPan } from "./timeline/use-pointer-pan";
import { useScrollToSelection } from "./timeline/use-scroll-to-selection";
import { useTimeView } from "./timeline/use-time-view";
import { useTimelineKeys } from "./timeline/use-timeline-keys";
import { useViewportSize } from "./timeline/use-viewport-size";
import { useWheelZoom } from "./timeline/use-wheel-zoom";
import { CallLane, ToolHeader } from "./timeline-lane";
import styles from "./runs.module.css";

export type Selection = TimelineSelection;

const LABEL_WIDTH = 300;
const OVERSCAN = 8;

/**
 * The lanes. Rows are virtualised by hand (fixed lane height, only the rows in the scroll viewport
 * are in the DOM); bars are placed in percent of the visible time window so that the server render
 * is already correct at any width and zooming is a re-render, not a re-layout.
 */
export function TimelineChart({
  layout,
  arrows,
  selected,
  onSelect,
}: {
  layout: TimelineLayout;
  /** What came of each error surfaced to the model (lib/charts/told-arrows.ts). */
  arrows: readonly ToldArrow[];
  selected: Selection | null;
  onSelect: (s: Selection | null) => void;
}) {
  // Fit shows the attempts; pan and zoom-out reach the run's marks (deadline, end) as well.
  const fitted = useMemo(() => fitView(layout.dataDomain), [layout.dataDomain]);
  const bounds = useMemo(() => unionView(fitView(layout.domain), fitted), [layout.domain, fitted]);
  const root = useRef<HTMLElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const viewport = useViewportSize(scroller, LABEL_WIDTH);
  const { view, update, zoomBy, zoomAround, fit } = useTimeView(fitted, bounds, selected, layout.rows);
  const move = useFailingNavigation(layout, selected, onSelect);
  const pointer = usePointerPan({ view, trackWidth: viewport.width, labelWidth: LABEL_WIDTH, bounds, update, zoomBy });
  useScrollToSelection(scroller, selected, layout.rows);
  useWheelZoom(scroller, LABEL_WIDTH, bounds, update);
  useTimelineKeys({
    j: () => move(1),
    ArrowRight: () => move(1),
    k: () => move(-1),
    ArrowLeft: () => move(-1),
    "+": () => zoomAround(0.5),
    "=": () => zoomAround(0.5),
    "-": () => zoomAround(2),
    "0": fit,
    Escape: () => onSelect(null),
  });
  // Marks the moment the chart is interactive (hydrated), for the benchmark and tests.
  useEffect(() => {
    if (root.current) root.current.dataset.hydrated = "true";
  }, []);

  const markers = useMemo(() => timelineMarkers(layout), [layout]);
  const { first, end } = visibleRows(scrollTop, viewport.height, layout.rows.length, LANE_HEIGHT, OVERSCAN);
  const span = Math.max(1, view.end - view.start);
  const pct = (ms: number) => ((ms - view.start) / span) * 100;
  const pxPerMs = viewport.width / span;

  return (
    <section aria-label="Retry timeline" ref={root} data-testid="timeline">
      <TimelineToolbar onZoomIn={() => zoomAround(0.5)} onZoomOut={() => zoomAround(2)} onFit={fit} />
      <div className={styles.chart} style={{ ["--label-w" as string]: `${LABEL_WIDTH}px` }}>
        <TimelineAxis rowCount={layout.rows.length} ticks={timeTicks(view, viewport.width)} pct={pct} scrollbar={viewport.scrollbar}>
          <OffscreenMarks markers={markers} view={view} />
        </TimelineAxis>
        <div style={{ position: "relative" }}>
          <div ref={scroller} className={styles.scroller} data-testid="timeline-scroller" onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)} {...pointer}>
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
              <ToldArrows arrows={arrows} pct={pct} height={layout.height} first={first} end={end} />
            </div>
          </div>
          <TimelineMarkers markers={markers} view={view} pct={pct} scrollbar={viewport.scrollbar} />
        </div>
      </div>
    </section>
  );
}
