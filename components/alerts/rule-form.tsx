"use client";

import { useState } from "react";
import type { AlertReceiver, AlertRuleParams } from "@/lib/contracts/alerts";
import { alertRuleParamsSchema } from "@/lib/contracts/alerts";
import { ALERT_RULE_KINDS, type AlertRuleKind } from "@/lib/contracts/alert-enums";
import styles from "./alerts.module.css";

/** A starting point per kind, shown in the params field when the kind is picked. */
const EXAMPLE_PARAMS: Record<AlertRuleKind, AlertRuleParams> = {
  new_code: { kind: "new_code" },
  drift: { kind: "drift", minSeverity: "critical" },
  failure_rate: { kind: "failure_rate", windowMinutes: 10, threshold: 0.5, minCalls: 20 },
  retry_storm: { kind: "retry_storm", windowMinutes: 5, perMinute: 30 },
  refusal_spike: { kind: "refusal_spike", windowMinutes: 15, factor: 3, minCount: 5 },
  failed_closed: { kind: "failed_closed", windowMinutes: 15, threshold: 3 },
};

const pretty = (p: AlertRuleParams) => JSON.stringify(p, null, 2);

export interface RuleFormValue {
  name: string;
  params: AlertRuleParams;
  receiverId: number | null;
}

/** Create or edit a rule: a name, the kind's params as JSON (checked with the API's own schema), a receiver. */
export function RuleForm(props: { initial?: RuleFormValue; receivers: AlertReceiver[]; submitLabel: string; onSubmit(value: RuleFormValue): Promise<void> }) {
  const [name, setName] = useState(props.initial?.name ?? "");
  const [kind, setKind] = useState<AlertRuleKind>(props.initial?.params.kind ?? "failure_rate");
  const [params, setParams] = useState(pretty(props.initial?.params ?? EXAMPLE_PARAMS.failure_rate));
  const [receiver, setReceiver] = useState(props.initial?.receiverId?.toString() ?? "");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className={styles.form}
      onSubmit={(e) => {
        e.preventDefault();
        let parsed: unknown;
        try {
          parsed = JSON.parse(params);
        } catch {
          setProblem("params are not valid JSON");
          return;
        }
        const checked = alertRuleParamsSchema.safeParse(parsed);
        if (!checked.success) {
          setProblem(checked.error.issues.map((i) => `${i.path.join(".") || "params"}: ${i.message}`).join("; "));
          return;
        }
        setProblem(null);
        setBusy(true);
        props
          .onSubmit({ name: name.trim(), params: checked.data, receiverId: receiver === "" ? null : Number(receiver) })
          .catch((error: unknown) => setProblem(error instanceof Error ? error.message : String(error)))
          .finally(() => setBusy(false));
      }}
    >
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
      </label>
      <label>
        Kind
        <select
          value={kind}
          onChange={(e) => {
            const k = e.target.value as AlertRuleKind;
            setKind(k);
            setParams(pretty(EXAMPLE_PARAMS[k]));
          }}
        >
          {ALERT_RULE_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      <label>
        Params (JSON)
        <textarea value={params} onChange={(e) => setParams(e.target.value)} spellCheck={false} />
      </label>
      <label>
        Receiver
        <select value={receiver} onChange={(e) => setReceiver(e.target.value)}>
          <option value="">none (history only)</option>
          {props.receivers.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name} ({r.format})
            </option>
          ))}
        </select>
      </label>
      {problem ? <p role="alert">{problem}</p> : null}
      <div className={styles.actions}>
        <button type="submit" disabled={busy}>
          {props.submitLabel}
        </button>
      </div>
    </form>
  );
}
