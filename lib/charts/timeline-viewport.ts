/** A visible time window in ms from the layout origin. */
export interface TimeView {
  start: number;
  end: number;
}

/** Narrowest window a zoom may reach: below a millisecond bars stop meaning anything. */
export const MIN_VIEW_MS = 1;

/**
 * The rows to render for a scroll position: those intersecting the viewport plus `overscan` on each
 * side, as a half-open range [first, end). Fixed row height makes this exact and O(1).
 */
export function visibleRows(scrollTop: number, viewportHeight: number, rowCount: number, rowHeight: number, overscan: number): { first: number; end: number } {
  if (rowCount === 0 || viewportHeight <= 0) return { first: 0, end: 0 };
  const top = Math.max(0, scrollTop);
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const end = Math.min(rowCount, Math.ceil((top + viewportHeight) / rowHeight) + overscan);
  return { first: Math.min(first, end), end };
}

/** Maps ms to px for a view drawn over `width` pixels. */
export function makeScale(view: TimeView, width: number): (ms: number) => number {
  const k = width / Math.max(MIN_VIEW_MS, view.end - view.start);
  return (ms) => (ms - view.start) * k;
}

/** The whole domain with a small margin, so the first and last bars do not touch the edges. */
export function fitView(domain: TimeView): TimeView {
  const span = Math.max(MIN_VIEW_MS, domain.end - domain.start);
  const pad = span * 0.02;
  return { start: domain.start - pad, end: domain.end + pad };
}

function clampToBounds(view: TimeView, bounds: TimeView): TimeView {
  const span = view.end - view.start;
  const boundsSpan = bounds.end - bounds.start;
  if (span >= boundsSpan) return { ...bounds };
  if (view.start < bounds.start) return { start: bounds.start, end: bounds.start + span };
  if (view.end > bounds.end) return { start: bounds.end - span, end: bounds.end };
  return view;
}

/**
 * Zooms by `factor` (< 1 zooms in) keeping the time under `anchor` fixed on screen, and stays
 * within `bounds` (normally the fitted domain).
 */
export function zoomView(view: TimeView, factor: number, anchor: number, bounds: TimeView): TimeView {
  const span = view.end - view.start;
  const next = Math.min(bounds.end - bounds.start, Math.max(MIN_VIEW_MS, span * factor));
  const ratio = span > 0 ? (anchor - view.start) / span : 0.5;
  const start = anchor - ratio * next;
  return clampToBounds({ start, end: start + next }, bounds);
}

/** Moves the window by `deltaMs`, stopping at the bounds. */
export function panView(view: TimeView, deltaMs: number, bounds: TimeView): TimeView {
  return clampToBounds({ start: view.start + deltaMs, end: view.end + deltaMs }, bounds);
}

const STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000];

/** Axis ticks: the smallest round step that keeps ticks at least `minGapPx` apart. */
export function timeTicks(view: TimeView, width: number, minGapPx = 80): number[] {
  const span = view.end - view.start;
  if (span <= 0 || width <= 0) return [];
  const wanted = (span * minGapPx) / width;
  const step = STEPS.find((s) => s >= wanted) ?? Math.ceil(wanted / 3_600_000) * 3_600_000;
  const ticks: number[] = [];
  for (let t = Math.ceil(view.start / step) * step; t <= view.end; t += step) ticks.push(t + 0); // + 0 turns -0 into 0
  return ticks;
}

/**
 * The time the zoom keys zoom around: the selected attempt's middle, else the middle of the data.
 * Zooming around the view's middle would push the attempts off screen when they are not centred.
 */
export function zoomAnchor(selected: { start: number; end: number } | null, data: TimeView): number {
  return selected ? (selected.start + selected.end) / 2 : (data.start + data.end) / 2;
}

/** A run mark outside the view, said at the edge it lies beyond and how far. */
export interface OffscreenMark<K extends string = string> {
  key: K;
  side: "left" | "right";
  /** Ms between the mark and the view's nearest edge (always positive). */
  distanceMs: number;
}

/** Which marks lie outside the view, on which side and how far from its edge. */
export function offscreenMarks<K extends string>(marks: readonly { key: K; at: number }[], view: TimeView): OffscreenMark<K>[] {
  const out: OffscreenMark<K>[] = [];
  for (const m of marks) {
    if (m.at < view.start) out.push({ key: m.key, side: "left", distanceMs: view.start - m.at });
    else if (m.at > view.end) out.push({ key: m.key, side: "right", distanceMs: m.at - view.end });
  }
  return out;
}

/** The smallest view holding both windows: how far pan and zoom-out may go. */
export function unionView(a: TimeView, b: TimeView): TimeView {
  return { start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) };
}

/** Pans the view just enough to centre [lo, hi] when it is wholly outside; otherwise the view as is. */
export function revealSpan(view: TimeView, lo: number, hi: number, bounds: TimeView): TimeView {
  return hi < view.start || lo > view.end ? panView(view, (lo + hi) / 2 - (view.start + view.end) / 2, bounds) : view;
}
