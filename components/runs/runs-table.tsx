import Link from "next/link";
import type { RunListItem } from "@/lib/contracts/runs";
import { formatDuration, formatTime } from "@/lib/charts/timeline-labels";
import styles from "./runs.module.css";

// A field the run's records did not carry; distinct from "run record missing" in the state column.
const unknown = <span className={styles.muted}>unknown</span>;
const Count = ({ n }: { n: number }) => <td className={`${styles.num} ${n === 0 ? styles.zero : ""}`}>{n}</td>;

export function RunsTable({ runs, project, busy }: { runs: RunListItem[]; project: string | undefined; busy: boolean }) {
  const suffix = project && project !== "default" ? `?project=${encodeURIComponent(project)}` : "";
  return (
    <table className={styles.table} aria-busy={busy} data-testid="runs-table">
      <thead>
        <tr>
          <th>Run</th>
          <th>Agent</th>
          <th>Release</th>
          <th>Final state</th>
          <th>Started (UTC)</th>
          <th className={styles.num}>Duration</th>
          <th className={styles.num}>Tool calls</th>
          <th className={styles.num}>Attempts</th>
          <th className={styles.num}>Retries</th>
          <th className={styles.num} title="attempts whose outcome was not ok">Failed attempts</th>
          <th className={styles.num} title="calls that ended in a final tool error">Final errors</th>
          <th className={styles.num} title="the tool said no (ToolRefusal)">Declined</th>
          <th className={styles.num} title="the permission layer said no">Refused</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.run_id} data-run-id={r.run_id}>
            <td className={styles.mono}>
              <Link href={`/runs/${encodeURIComponent(r.run_id)}${suffix}`}>{r.run_id}</Link>
            </td>
            <td>{r.agent ?? unknown}</td>
            <td>{r.release ?? <span className={styles.muted}>unknown</span>}</td>
            <td>
              {r.has_run_record ? (
                <span className={styles.state} data-state={r.state ?? ""}>
                  {r.state}
                </span>
              ) : (
                <span className={styles.state} data-state="missing" title="spans or tool errors arrived, the run record did not">
                  run record missing
                </span>
              )}
            </td>
            <td className={styles.mono}>{r.started_at === null ? unknown : formatTime(r.started_at).slice(0, 19)}</td>
            <td className={styles.num}>
              {r.duration_ms !== null ? formatDuration(r.duration_ms) : r.ended_at === null ? <span className={styles.muted}>running</span> : unknown}
            </td>
            <Count n={r.tool_calls} />
            <Count n={r.attempts} />
            <Count n={r.retries} />
            <Count n={r.failed_attempts} />
            <Count n={r.errors} />
            <Count n={r.declined} />
            <Count n={r.refused} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}
