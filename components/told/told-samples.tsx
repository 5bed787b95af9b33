import Link from "next/link";
import { TOLD_STEP_LABELS } from "@/lib/charts/told-labels";
import { RECOVERY_STEPS, type ToldSample } from "@/lib/contracts/told";
import styles from "./told.module.css";

// A sample shows the start of the told text on one line; its title holds all of it.
const MAX_TOLD_CHARS = 140;

const runHref = (s: ToldSample, project: string | undefined) =>
  `/runs/${encodeURIComponent(s.runId)}${project && project !== "default" ? `?project=${encodeURIComponent(project)}` : ""}`;

/** What the next call was: its tool and how it ended (ok, or its code). */
function nextText(s: ToldSample): string {
  if (!s.next) return TOLD_STEP_LABELS[s.step];
  const ended = s.next.outcome === "ok" ? "ok" : (s.next.code ?? s.next.outcome ?? "outcome unknown");
  return `${TOLD_STEP_LABELS[s.step]}: ${s.next.tool} → ${ended}`;
}

/** Example runs of a wording: the exact text the model was told → what its next call did, each linking to its run. */
export function ToldSamples({ samples, project }: { samples: readonly ToldSample[]; project: string | undefined }) {
  if (samples.length === 0) return <span className={styles.next}>no decided example yet</span>;
  return (
    <ul className={styles.samples}>
      {samples.map((s) => {
        const told = s.told ?? "";
        const line = told.replace(/\s+/g, " ").trim();
        const cut = line.length > MAX_TOLD_CHARS ? `${line.slice(0, MAX_TOLD_CHARS - 1)}…` : line;
        return (
          <li key={`${s.runId}/${s.callId}`} data-testid="told-sample" data-step={s.step}>
            <Link href={runHref(s, project)} className={styles.told} title={`run ${s.runId}`}>
              run
            </Link>
            <span>
              <span className={styles.told} title={told}>
                {s.told === null ? "(told text not recorded)" : cut}
              </span>{" "}
              → <span className={styles.next} data-recovery={RECOVERY_STEPS.includes(s.step)}>{nextText(s)}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
