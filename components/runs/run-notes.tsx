import type { TimelineLayout } from "@/lib/charts/timeline-layout";
import type { RunTimeline } from "@/lib/contracts/runs";
import styles from "./runs.module.css";

/** What the run page must say about missing or inconsistent data: no run record, no start, attempts drawn as recorded. */
export function RunNotes({ run, incomplete }: { run: RunTimeline["run"]; incomplete: TimelineLayout["incomplete"] }) {
  return (
    <>
      {!run ? (
        <p className={styles.banner} role="note">
          The run record never arrived: only its tool-call spans and errors did. Time 0 is the earliest attempt; the run&apos;s
          end, deadline and retry budget are unknown.
        </p>
      ) : null}
      {run && run.startedAt === null ? (
        <p className={styles.banner} role="note" data-testid="start-unknown-note">
          The run&apos;s start has not arrived, only a record of its end: agent and start are unknown until it does. Time 0 is
          the earliest attempt, or the end when there are none.
        </p>
      ) : null}
      {incomplete.attempts > 0 ? (
        <p className={styles.banner} role="note" data-testid="incomplete-note">
          Incomplete data: {incomplete.attempts} attempt{incomplete.attempts === 1 ? "" : "s"} in {incomplete.calls} call
          {incomplete.calls === 1 ? "" : "s"} have missing attempt numbers or clocks that disagree. They are drawn as
          recorded, hatched and marked ⚠.
        </p>
      ) : null}
    </>
  );
}
