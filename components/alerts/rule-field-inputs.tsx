"use client";

import type { RuleFields } from "@/lib/alerts/rule-fields";
import type { AlertRuleKind } from "@/lib/contracts/alert-enums";
import { SloSelect } from "./slo-select";
import { LabelledInput } from "@/components/shell/labelled-input";
import { DRIFT_KINDS, DRIFT_SEVERITIES, type DriftKind, type DriftSeverity } from "@/lib/contracts/drift";

type Issues = Partial<Record<keyof RuleFields | "form", string>>;


/** The inputs of one rule kind: what it measures, in the units a person thinks in (percent, minutes, counts). */
export function RuleFieldInputs(props: { idPrefix: string; project: string; kind: AlertRuleKind; fields: RuleFields; issues: Issues; onChange(f: RuleFields): void }) {
  const { fields: f, issues, idPrefix: p } = props;
  const set = (key: keyof RuleFields) => (v: string) => props.onChange({ ...f, [key]: v });
  const tool = <LabelledInput id={`${p}-tool`} label="Tool (empty: every tool)" type="text" value={f.tool} onChange={set("tool")} issue={issues.tool} />;
  const window = <LabelledInput id={`${p}-window`} label="Window (minutes)" step="1" min="1" max="1440" required value={f.windowMinutes} onChange={set("windowMinutes")} issue={issues.windowMinutes} />;
  switch (props.kind) {
    case "new_code":
    case "issue_regressed":
      return tool;
    case "drift":
      return (
        <>
          <label htmlFor={`${p}-severity`}>
            Minimum severity
            <select id={`${p}-severity`} value={f.minSeverity} onChange={(e) => props.onChange({ ...f, minSeverity: e.target.value as DriftSeverity })}>
              {DRIFT_SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <fieldset>
            <legend>Finding kinds (none ticked: every kind)</legend>
            {DRIFT_KINDS.map((k) => (
              <label key={k} htmlFor={`${p}-dk-${k}`}>
                <input
                  id={`${p}-dk-${k}`}
                  type="checkbox"
                  checked={f.driftKinds.includes(k)}
                  onChange={(e) => props.onChange({ ...f, driftKinds: e.target.checked ? [...f.driftKinds, k] : f.driftKinds.filter((x: DriftKind) => x !== k) })}
                />
                {k.replace("_", " ")}
              </label>
            ))}
          </fieldset>
        </>
      );
    case "failure_rate":
      return (
        <>
          {tool}
          {window}
          <LabelledInput id={`${p}-threshold`} label="Fires above (% of calls failed)" min="0" max="100" required value={f.thresholdPercent} onChange={set("thresholdPercent")} issue={issues.thresholdPercent} />
          <LabelledInput id={`${p}-min-calls`} label="Only with at least (calls in the window)" step="1" min="1" required value={f.minCalls} onChange={set("minCalls")} issue={issues.minCalls} />
        </>
      );
    case "retry_storm":
      return (
        <>
          {tool}
          {window}
          <LabelledInput id={`${p}-per-minute`} label="Fires above (retries a minute)" hint="Give this, the next, or both." min="0" value={f.perMinute} onChange={set("perMinute")} issue={issues.perMinute} />
          <LabelledInput id={`${p}-per-call`} label="Fires above (retries per call)" min="0" value={f.perCall} onChange={set("perCall")} issue={issues.perCall} />
        </>
      );
    case "refusal_spike":
      return (
        <>
          {tool}
          {window}
          <LabelledInput id={`${p}-factor`} label="Fires at (× the window before)" min="1" required value={f.factor} onChange={set("factor")} issue={issues.factor} />
          <LabelledInput id={`${p}-min-count`} label="And at least (refusals and declines)" step="1" min="1" required value={f.minCount} onChange={set("minCount")} issue={issues.minCount} />
        </>
      );
    case "failed_closed":
      return (
        <>
          {tool}
          {window}
          <LabelledInput id={`${p}-count`} label="Fires at (attempts failed closed)" step="1" min="1" required value={f.count} onChange={set("count")} issue={issues.count} />
        </>
      );
    case "slo_burn":
      return <SloSelect id={`${p}-slo`} project={props.project} value={f.slo} onChange={set("slo")} issue={issues.slo} />;
  }
}
