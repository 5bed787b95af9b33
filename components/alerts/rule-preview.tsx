"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { formatDuration, formatUtc } from "@/lib/alerts/describe";
import type { AlertRuleParams } from "@/lib/contracts/alerts";
import { alertRulePreviewOptions } from "@/lib/query/alerts";
import styles from "./alerts.module.css";

/** The params once they stop changing for a moment: typing a threshold does not ask the server per key. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

const SHOWN = 5;

/** How often the rule being written would have fired over the last 7 days, replayed by the server's evaluator. */
export function RulePreview(props: { project: string; params: AlertRuleParams | null }) {
  const params = useSettled(props.params, 300);
  const preview = useQuery({ ...alertRulePreviewOptions(props.project, params ?? { kind: "new_code" }), enabled: params !== null });
  let body;
  if (params === null) body = <p className={styles.muted}>Complete the fields to see how often this rule would have fired.</p>;
  else if (preview.isPending) body = <p className={styles.muted}>Replaying the last 7 days…</p>;
  else if (preview.error) body = <p role="alert">Could not preview: {preview.error.message}</p>;
  else {
    const p = preview.data;
    const firings = p.episodes.length;
    body = (
      <>
        <p data-testid="rule-preview-summary">
          {params.kind === "drift"
            ? `${firings === 0 ? "No" : firings} current drift finding${firings === 1 ? "" : "s"} would fire it.`
            : `Over the last 7 days it would have fired ${firings === 0 ? "no times" : firings === 1 ? "once" : `${firings} times`} (${p.notifications} notification${p.notifications === 1 ? "" : "s"}, checked every ${p.stepMinutes} min).`}
        </p>
        {firings > 0 ? (
          <ul className={styles.attempts} aria-label="Would have fired">
            {p.episodes.slice(0, SHOWN).map((e) => (
              <li key={`${e.tool}\u0000${e.code}\u0000${e.firedAt}`}>
                {formatUtc(e.firedAt)} · {e.tool}
                {e.code ? ` / ${e.code}` : ""} · {e.value}
                {e.resolvedAt === null ? " · still firing" : ` · for ${formatDuration(e.resolvedAt - e.firedAt)}`}
              </li>
            ))}
            {firings > SHOWN ? <li>and {firings - SHOWN} more</li> : null}
          </ul>
        ) : null}
      </>
    );
  }
  return (
    <section aria-label="Preview" aria-live="polite" className={styles.preview}>
      {body}
    </section>
  );
}
