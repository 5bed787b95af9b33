import { RECOVERY_STEPS, type TimelineToldStep, type ToldStep } from "@/lib/contracts/told-step";
import { LANE_HEIGHT, type CallRow, type TimelineLayout } from "./timeline-types";
import { TOLD_STEP_LABELS } from "./told-labels";

/** One surfaced error of the run and what came of it, placed on the timeline. */
export interface ToldArrow {
  key: string;
  step: ToldStep;
  recovery: boolean;
  fromCallId: string;
  fromTool: string;
  code: string;
  /** The call that decided the step, when there is one. */
  toCallId: string | null;
  toTool: string | null;
  /** Rows of the two calls (null when a call has no lane: no attempt of it was recorded). */
  fromRow: number | null;
  toRow: number | null;
  /** The error call's last attempt end and the next call's first attempt start, in ms from the layout origin. */
  fromMs: number | null;
  toMs: number | null;
  /** Vertical centres of the two lanes, in px from the top of the lanes. */
  fromY: number | null;
  toY: number | null;
  /** Whether an arrow can be drawn: both lanes exist and a next call decided the step. */
  drawn: boolean;
  /** The arrow in words, for screen readers and the list under the chart. */
  description: string;
}

function rowOf(layout: TimelineLayout, callId: string, tool: string): CallRow | null {
  for (const r of layout.rows) if (r.kind === "call" && r.callId === callId && r.tool === tool) return r;
  return null;
}

const lastEnd = (row: CallRow) => (row.bars.length === 0 ? null : Math.max(...row.bars.map((b) => Math.max(b.start, b.end))));
const firstStart = (row: CallRow) => (row.bars.length === 0 ? null : Math.min(...row.bars.map((b) => Math.min(b.start, b.end))));
const centre = (row: CallRow) => row.y + LANE_HEIGHT / 2;

function describe(s: TimelineToldStep): string {
  const told = `The model was told ${s.code === "" ? "an error" : s.code} from ${s.tool} (call ${s.callId})`;
  const next = s.nextCallId === null ? "" : ` — call ${s.nextCallId} of ${s.nextTool ?? "?"}`;
  const tries = s.callsUntilRecovery !== null && s.callsUntilRecovery > 1 ? `, after ${s.callsUntilRecovery} calls` : "";
  return `${told}: ${TOLD_STEP_LABELS[s.step]}${next}${tries}.`;
}

/**
 * The arrows of a run's timeline, one per surfaced error: from the end of the error's call to the
 * start of the call that decided its next step (the recovering call, or the call that repeated or
 * failed again). Steps without a next call (gave up, run failed, pending), or whose calls have no
 * lane, are kept with `drawn: false` so the description still lists them.
 */
export function toldArrows(layout: TimelineLayout, steps: readonly TimelineToldStep[]): ToldArrow[] {
  return steps.map((s, i) => {
    const from = rowOf(layout, s.callId, s.tool);
    const to = s.nextCallId !== null && s.nextTool !== null ? rowOf(layout, s.nextCallId, s.nextTool) : null;
    const fromMs = from ? lastEnd(from) : null;
    const toMs = to ? firstStart(to) : null;
    return {
      key: `${i}:${s.tool}:${s.callId}`,
      step: s.step,
      recovery: RECOVERY_STEPS.includes(s.step),
      fromCallId: s.callId,
      fromTool: s.tool,
      code: s.code,
      toCallId: s.nextCallId,
      toTool: s.nextTool,
      fromRow: from?.index ?? null,
      toRow: to?.index ?? null,
      fromMs,
      toMs,
      fromY: from ? centre(from) : null,
      toY: to ? centre(to) : null,
      drawn: fromMs !== null && toMs !== null,
      description: describe(s),
    };
  });
}

/** Arrows that cross the rows `first`..`end` (exclusive) of the virtualised lanes: the only ones worth drawing. */
export function arrowsInRows(arrows: readonly ToldArrow[], first: number, end: number): ToldArrow[] {
  return arrows.filter((a) => a.drawn && Math.min(a.fromRow!, a.toRow!) < end && Math.max(a.fromRow!, a.toRow!) >= first);
}
