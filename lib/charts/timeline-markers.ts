import { formatOffset } from "./timeline-labels";
import type { TimelineLayout } from "./timeline-types";

export type MarkerKind = "deadline" | "end" | "start";

/** A vertical line across all lanes: a moment of the run record. */
export interface TimelineMarker {
  key: MarkerKind;
  /** Ms from the origin. */
  at: number;
  label: string;
}

/** The run's deadline, end and start, when its record says them (drawn in this order, start on top). */
export function timelineMarkers(layout: Pick<TimelineLayout, "deadline" | "runEnd" | "runRecordMissing">): TimelineMarker[] {
  const lines: TimelineMarker[] = [];
  if (layout.deadline !== null) lines.push({ key: "deadline", at: layout.deadline, label: `deadline ${formatOffset(layout.deadline)}` });
  if (layout.runEnd !== null) lines.push({ key: "end", at: layout.runEnd, label: "run ended" });
  if (!layout.runRecordMissing) lines.push({ key: "start", at: 0, label: "run started" });
  return lines;
}
