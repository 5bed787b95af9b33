"use client";

import { useId, useState } from "react";
import { DEFAULT_FIELDS, fieldsFromParams, paramsFromFields, type RuleFields } from "@/lib/alerts/rule-fields";
import type { AlertReceiver, AlertRuleParams } from "@/lib/contracts/alerts";
import { ALERT_RULE_KINDS, type AlertRuleKind } from "@/lib/contracts/alert-enums";
import { useCheckedSubmit } from "@/components/shell/use-checked-submit";
import styles from "./alerts.module.css";
import { RuleFieldInputs } from "./rule-field-inputs";
import { RulePreview } from "./rule-preview";

export interface RuleFormValue {
  name: string;
  params: AlertRuleParams;
  receiverId: number | null;
}

const KIND_LABEL: Record<AlertRuleKind, string> = {
  new_code: "New code",
  drift: "Drift finding",
  failure_rate: "Failure rate",
  retry_storm: "Retry storm",
  refusal_spike: "Refusal spike",
  failed_closed: "Failed closed",
  issue_regressed: "Issue regressed",
  slo_burn: "SLO burn rate",
};

/**
 * Create or edit a rule: a name, the kind's own fields (checked with the API's schema, each problem
 * next to its input), a receiver, and a preview of how often it would have fired last week. A
 * creating form starts empty again after each rule (its parent remounts it).
 */
export function RuleForm(props: { project: string; initial?: RuleFormValue; receivers: AlertReceiver[]; submitLabel: string; onSubmit(value: RuleFormValue): Promise<void> }) {
  const id = useId();
  const { showIssues, problem, busy, submit } = useCheckedSubmit();
  const [name, setName] = useState(props.initial?.name ?? "");
  const [kind, setKind] = useState<AlertRuleKind>(props.initial?.params.kind ?? "failure_rate");
  const [fields, setFields] = useState<RuleFields>(props.initial ? fieldsFromParams(props.initial.params) : DEFAULT_FIELDS);
  const [receiver, setReceiver] = useState(props.initial?.receiverId?.toString() ?? "");
  const result = paramsFromFields(kind, fields);
  const issues = Object.fromEntries(result.ok || !showIssues ? [] : result.issues.map((i) => [i.field, i.message]));
  return (
    <form
      className={styles.form}
      aria-label={props.initial ? `Edit rule ${props.initial.name}` : "New rule"}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        submit(result.ok ? () => props.onSubmit({ name: name.trim(), params: result.params, receiverId: receiver === "" ? null : Number(receiver) }) : null);
      }}
    >
      <label htmlFor={`${id}-name`}>
        Name
        <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
      </label>
      <label htmlFor={`${id}-kind`}>
        Kind
        <select id={`${id}-kind`} value={kind} onChange={(e) => setKind(e.target.value as AlertRuleKind)}>
          {ALERT_RULE_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_LABEL[k]}
            </option>
          ))}
        </select>
      </label>
      <RuleFieldInputs idPrefix={id} project={props.project} kind={kind} fields={fields} issues={issues} onChange={setFields} />
      {issues.form ? <p role="alert">{issues.form}</p> : null}
      <label htmlFor={`${id}-receiver`}>
        Receiver
        <select id={`${id}-receiver`} value={receiver} onChange={(e) => setReceiver(e.target.value)}>
          <option value="">none (history only)</option>
          {props.receivers.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name} ({r.format})
            </option>
          ))}
        </select>
      </label>
      <RulePreview project={props.project} params={result.ok ? result.params : null} />
      {problem ? <p role="alert">{problem}</p> : null}
      <div className={styles.actions}>
        <button type="submit" disabled={busy}>
          {props.submitLabel}
        </button>
      </div>
    </form>
  );
}
