import { A, type RunTimeline, type TimelineCall } from "@/lib/contracts/run-timeline";

/** Where time 0 of a run's timeline is, and the run record's marks in ms from it. */
export interface TimelineFrame {
  /** Epoch ms of time 0: the run's start, else the earliest attempt or final error, else the run's end. */
  origin: number;
  /** Added to an attempt time of the answer (ms after its `t0`) gives ms from the origin. */
  shift: number;
  runEnd: number | null;
  deadline: number | null;
}

/** Epoch ms a call began: its earliest attempt, else its final error; Infinity when it has neither. */
export function callStart(call: TimelineCall, t0: number): number {
  let min = Infinity;
  for (const a of call.attempts) min = Math.min(min, a[A.startedAt]);
  return min === Infinity ? (call.error?.occurredAt ?? Infinity) : t0 + min;
}

/** Places time 0; `starts` are the calls' {@link callStart}s. */
export function timelineFrame(t: Pick<RunTimeline, "run" | "t0">, starts: readonly number[]): TimelineFrame {
  const run = t.run;
  let earliest = Infinity;
  for (const s of starts) earliest = Math.min(earliest, s);
  // Without a known run start, time 0 is the earliest attempt, else the run's end.
  const origin = run?.startedAt ?? (earliest !== Infinity ? earliest : (run?.endedAt ?? 0));
  return {
    origin,
    // Attempt times are relative to the answer's t0; the layout's origin is the run start.
    shift: t.t0 - origin,
    runEnd: run?.endedAt != null ? run.endedAt - origin : null,
    deadline: run?.deadlineAt != null ? run.deadlineAt - origin : null,
  };
}
