"use client";

import { useId, useState } from "react";
import type { AlertReceiver } from "@/lib/contracts/alerts";
import { DEFAULT_SLO_FIELDS, sloFromFields, type SloDefinition, type SloFields } from "@/lib/slo/slo-fields";
import { LabelledInput } from "@/components/shell/labelled-input";
import { useCheckedSubmit } from "@/components/shell/use-checked-submit";
import styles from "./slos.module.css";


/**
 * Create or edit an SLO: name, tools (names or globs), the objective in percent, the window in days,
 * and the two switches of what counts as bad. A new SLO also picks where its burn-rate alerts go.
 */
export function SloForm(props: {
  initial?: SloFields;
  receivers?: AlertReceiver[];
  label: string;
  submitLabel: string;
  onSubmit(value: SloDefinition & { receiverId: number | null }): Promise<void>;
}) {
  const id = useId();
  const { showIssues, problem, busy, submit } = useCheckedSubmit();
  const [f, setF] = useState<SloFields>(props.initial ?? DEFAULT_SLO_FIELDS);
  const [receiver, setReceiver] = useState("");
  const result = sloFromFields(f);
  const issues = result.ok || !showIssues ? {} : result.issues;
  const set = (key: keyof SloFields) => (v: string) => setF({ ...f, [key]: v });
  return (
    <form
      className={styles.form}
      aria-label={props.label}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit(result.ok ? () => props.onSubmit({ ...result.value, receiverId: receiver === "" ? null : Number(receiver) }) : null);
      }}
    >
      <LabelledInput id={`${id}-name`} type="text" label="Name" value={f.name} onChange={set("name")} issue={issues.name} />
      <LabelledInput id={`${id}-tools`} type="text" label="Tools" hint="Names or globs, separated by commas: search_*, book_flight" value={f.tools} onChange={set("tools")} issue={issues.tools} />
      <LabelledInput
        id={`${id}-objective`}
        label="Objective (% of calls that do not end in an unrecovered failure)"
        value={f.objectivePercent}
        onChange={set("objectivePercent")}
        issue={issues.objectivePercent}
      />
      <LabelledInput id={`${id}-window`} label="Window (days)" value={f.windowDays} onChange={set("windowDays")} issue={issues.windowDays} />
      <fieldset>
        <legend>Also count as bad</legend>
        <label htmlFor={`${id}-declines`}>
          <input id={`${id}-declines`} type="checkbox" checked={f.countDeclines} onChange={(e) => setF({ ...f, countDeclines: e.target.checked })} />
          declines (the tool worked and said no)
        </label>
        <label htmlFor={`${id}-recovered`}>
          <input id={`${id}-recovered`} type="checkbox" checked={f.countRecovered} onChange={(e) => setF({ ...f, countRecovered: e.target.checked })} />
          failures the model recovered from
        </label>
      </fieldset>
      {props.receivers ? (
        <label htmlFor={`${id}-receiver`}>
          Burn-rate alerts go to
          <select id={`${id}-receiver`} value={receiver} onChange={(e) => setReceiver(e.target.value)}>
            <option value="">no receiver (alert history only)</option>
            {props.receivers.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name} ({r.format})
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {problem ? <p role="alert">{problem}</p> : null}
      <div className={styles.actions}>
        <button type="submit" disabled={busy}>
          {props.submitLabel}
        </button>
      </div>
    </form>
  );
}
