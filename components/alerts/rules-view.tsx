"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { roleAtLeast } from "@/lib/auth/roles";
import type { AlertRule } from "@/lib/contracts/alerts";
import { useProjectRole } from "@/lib/query/auth";
import { ROLLING_WINDOW_NOTE } from "@/lib/alerts/describe";
import { describeRuleParams } from "@/lib/alerts/rule-fields";
import { slosOptions } from "@/lib/query/slos";
import { alertReceiversOptions, alertRulesOptions, createAlertRule, deleteAlertRule, patchAlertRule } from "@/lib/query/alerts";
import { DataTable, type Column } from "@/components/data-table";
import { formatUtcMinute } from "@/lib/charts/time-format";
import { useNow } from "@/components/dashboard/use-now";
import styles from "./alerts.module.css";
import { ReceiversPanel } from "./receivers-panel";
import { RuleForm } from "./rule-form";

const HOUR = 3_600_000;

function ruleState(rule: AlertRule, now: number): string {
  if (rule.muted) return "muted";
  if (rule.snoozedUntil !== null && rule.snoozedUntil > now) return `snoozed until ${formatUtcMinute(rule.snoozedUntil)} UTC`;
  return "active";
}

/**
 * The project's alert rules: list, create, edit, mute, snooze and delete. Admins see every action,
 * members mute and snooze, viewers read (the API refuses the rest anyway).
 */
export function RulesView() {
  const project = useSearchParams().get("project") || "default";
  const role = useProjectRole(project);
  const canEdit = role != null && roleAtLeast(role, "admin");
  const canMute = role != null && roleAtLeast(role, "member");
  const qc = useQueryClient();
  const rules = useQuery(alertRulesOptions(project));
  const receivers = useQuery(alertReceiversOptions(project));
  // SLO burn rules name their SLO; read only when the project has such a rule.
  const hasSloRule = rules.data?.rules.some((r) => r.params.kind === "slo_burn") ?? false;
  const slos = useQuery({ ...slosOptions(project), enabled: hasSloRule });
  const sloNames = new Map((slos.data?.slos ?? []).map((s) => [s.slo.id, s.slo.name]));
  const [editing, setEditing] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  // A new key remounts the create form: it starts empty after each rule.
  const [created, setCreated] = useState(0);
  const refresh = () => qc.invalidateQueries({ queryKey: alertRulesOptions(project).queryKey });
  const act = (work: Promise<unknown>) =>
    work.then(
      () => {
        setProblem(null);
        return refresh();
      },
      (error: unknown) => setProblem(error instanceof Error ? error.message : String(error)),
    );
  const now = useNow(0);
  const columns: Column<AlertRule>[] = [
    {
      id: "name",
      header: "Name",
      cell: (rule) => (
        <>
          {rule.name}
          {editing === rule.id ? (
            <RuleForm
              project={project}
              initial={{ name: rule.name, params: rule.params, receiverId: rule.receiverId }}
              receivers={receivers.data?.receivers ?? []}
              submitLabel="Save"
              onSubmit={async (v) => {
                await patchAlertRule(rule.id, v);
                setEditing(null);
                await refresh();
              }}
            />
          ) : null}
        </>
      ),
    },
    {
      id: "condition",
      header: "Condition",
      cell: (rule) => describeRuleParams(rule.params, rule.params.kind === "slo_burn" ? sloNames.get(rule.params.slo) : undefined),
    },
    { id: "receiver", header: "Receiver", cell: (rule) => receivers.data?.receivers.find((r) => r.id === rule.receiverId)?.name ?? "none" },
    { id: "state", header: "State", cell: (rule) => ruleState(rule, now) },
  ];
  if (canMute) {
    columns.push({
      id: "actions",
      header: "Actions",
      cell: (rule) => (
        <div className={styles.actions}>
          {canEdit ? (
            <button type="button" onClick={() => setEditing(editing === rule.id ? null : rule.id)}>
              {editing === rule.id ? "Cancel" : "Edit"}
            </button>
          ) : null}
          <button type="button" onClick={() => void act(patchAlertRule(rule.id, { muted: !rule.muted }))}>
            {rule.muted ? "Unmute" : "Mute"}
          </button>
          {rule.snoozedUntil !== null && rule.snoozedUntil > now ? (
            <button type="button" onClick={() => void act(patchAlertRule(rule.id, { snoozedUntil: null }))}>
              End snooze
            </button>
          ) : (
            <button type="button" onClick={() => void act(patchAlertRule(rule.id, { snoozedUntil: Date.now() + HOUR }))}>
              Snooze 1 h
            </button>
          )}
          {!canEdit ? null : deleting === rule.id ? (
            <button type="button" onClick={() => void act(deleteAlertRule(rule.id)).finally(() => setDeleting(null))}>
              Confirm delete
            </button>
          ) : (
            <button type="button" onClick={() => setDeleting(rule.id)}>
              Delete
            </button>
          )}
        </div>
      ),
    });
  }
  const historyHref = project === "default" ? "/alerts/history" : `/alerts/history?project=${encodeURIComponent(project)}`;
  return (
    <section className={styles.page} aria-labelledby="alerts-title">
      <h1 id="alerts-title" className={styles.title}>
        Alert rules
      </h1>
      <p className={styles.muted}>
        Rules of project <span className={styles.mono}>{project}</span>, evaluated in the background. Each notification and every delivery
        attempt is in the <Link href={historyHref}>alert history</Link>.
      </p>
      <p className={styles.muted} data-testid="window-note">
        {ROLLING_WINDOW_NOTE}
      </p>
      {problem ? <p role="alert">{problem}</p> : null}
      <div className={styles.panel}>
        {rules.isPending ? (
          <p className={styles.muted}>Loading…</p>
        ) : rules.error ? (
          <p role="alert">Could not load the rules: {rules.error.message}</p>
        ) : rules.data.rules.length === 0 ? (
          <p className={styles.muted}>No rules yet.</p>
        ) : (
          <DataTable className={styles.table} align={{}} columns={columns} rows={rules.data.rules} rowKey={(rule) => String(rule.id)} ariaLabel="Alert rules" />
        )}
      </div>
      {canEdit ? (
      <section className={styles.panel} aria-labelledby="new-rule-title">
        <h2 id="new-rule-title" className={styles.subtitle}>
          New rule
        </h2>
        <RuleForm
          key={created}
          project={project}
          receivers={receivers.data?.receivers ?? []}
          submitLabel="Create rule"
          onSubmit={async (v) => {
            await createAlertRule({ project, ...v });
            setCreated((n) => n + 1);
            await refresh();
          }}
        />
      </section>
      ) : null}
      <ReceiversPanel project={project} canEdit={canEdit} />
    </section>
  );
}
