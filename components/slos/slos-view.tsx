"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useState } from "react";
import { DataTable, type Column } from "@/components/data-table";
import { roleAtLeast } from "@/lib/auth/roles";
import type { SloStatus } from "@/lib/contracts/slos";
import { alertReceiversOptions } from "@/lib/query/alerts";
import { useProjectRole } from "@/lib/query/auth";
import { createSlo, deleteSlo, patchSlo, slosOptions } from "@/lib/query/slos";
import { formatBurn } from "@/lib/slo/burn";
import { sloFieldsOf } from "@/lib/slo/slo-fields";
import { SloDetail } from "./slo-detail";
import { SloForm } from "./slo-form";
import { objectivePercent, percent, sloPageHref, SLO_STATE_LABEL } from "./slo-labels";
import styles from "./slos.module.css";

/**
 * The project's SLOs: each with its budget left, burn rates and state; one chosen in the URL shown
 * in full. Admins create, edit and delete; everyone reads.
 */
export function SlosView() {
  const search = useSearchParams();
  const project = search.get("project") || "default";
  const selected = Number(search.get("slo") ?? "") || null;
  const role = useProjectRole(project);
  const canEdit = role != null && roleAtLeast(role, "admin");
  const qc = useQueryClient();
  const slos = useQuery(slosOptions(project));
  const receivers = useQuery({ ...alertReceiversOptions(project), enabled: canEdit });
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // A new key remounts the create form: it starts empty after each SLO.
  const [created, setCreated] = useState(0);
  const refresh = () => qc.invalidateQueries({ predicate: (q) => q.queryKey[0] === "slos" || q.queryKey[0] === "slo-detail" });
  const columns: Column<SloStatus>[] = [
    {
      id: "name",
      header: "SLO",
      cell: (s) => (
        <>
          <Link href={sloPageHref(project, s.slo.id)} aria-current={selected === s.slo.id ? "true" : undefined}>
            {s.slo.name}
          </Link>
          {editing === s.slo.id ? (
            <SloForm
              label={`Edit SLO ${s.slo.name}`}
              initial={sloFieldsOf(s.slo)}
              submitLabel="Save"
              onSubmit={async (v) => {
                const { receiverId: _ignored, ...patch } = v;
                await patchSlo(s.slo.id, patch);
                setEditing(null);
                await refresh();
              }}
            />
          ) : null}
        </>
      ),
    },
    { id: "tools", header: "Tools", cell: (s) => <span className={styles.mono}>{s.slo.tools.join(", ")}</span> },
    { id: "objective", header: "Objective", cell: (s) => `${objectivePercent(s.slo.objective)} over ${s.slo.windowDays} d` },
    { id: "budget", header: "Budget left", cell: (s) => percent(s.budgetRemaining) },
    { id: "burn-fast", header: "Burn 1 h / 5 min", cell: (s) => `${formatBurn(s.burnRates.h1)} / ${formatBurn(s.burnRates.m5)}` },
    { id: "burn-slow", header: "Burn 6 h / 30 min", cell: (s) => `${formatBurn(s.burnRates.h6)} / ${formatBurn(s.burnRates.m30)}` },
    { id: "state", header: "State", cell: (s) => SLO_STATE_LABEL[s.state] },
  ];
  if (canEdit) {
    columns.push({
      id: "actions",
      header: "Actions",
      cell: (s) => (
        <div className={styles.actions}>
          <button type="button" aria-label={`${editing === s.slo.id ? "Cancel edit of" : "Edit"} ${s.slo.name}`} onClick={() => setEditing(editing === s.slo.id ? null : s.slo.id)}>
            {editing === s.slo.id ? "Cancel" : "Edit"}
          </button>
          {deleting === s.slo.id ? (
            <button
              type="button"
              aria-label={`Confirm delete of ${s.slo.name}`}
              onClick={() =>
                void deleteSlo(s.slo.id)
                  .then(() => (setProblem(null), refresh()), (e: unknown) => setProblem(e instanceof Error ? e.message : String(e)))
                  .finally(() => setDeleting(null))
              }
            >
              Confirm delete
            </button>
          ) : (
            <button type="button" aria-label={`Delete ${s.slo.name}`} onClick={() => setDeleting(s.slo.id)}>
              Delete
            </button>
          )}
        </div>
      ),
    });
  }
  const alertsHref = project === "default" ? "/alerts" : `/alerts?project=${encodeURIComponent(project)}`;
  const list = slos.data?.slos ?? [];
  return (
    <section className={styles.page} aria-labelledby="slos-title">
      <h1 id="slos-title" className={styles.title}>
        SLOs
      </h1>
      <p className={styles.muted}>
        Objectives on the share of calls that end in a failure the agent could not recover from, in project <span className={styles.mono}>{project}</span>. Each SLO
        has a burn-rate rule on the <Link href={alertsHref}>Alerts</Link> page: it pages on a fast burn and opens a ticket on a slow one.
      </p>
      {problem ? <p role="alert">{problem}</p> : null}
      <div className={styles.panel}>
        {slos.isPending ? (
          <p className={styles.muted}>Loading…</p>
        ) : slos.error ? (
          <p role="alert">Could not load the SLOs: {slos.error.message}</p>
        ) : list.length === 0 ? (
          <p className={styles.muted}>No SLO yet.</p>
        ) : (
          <DataTable className={styles.table} align={{}} columns={columns} rows={list} rowKey={(s) => String(s.slo.id)} ariaLabel="SLOs" />
        )}
      </div>
      {selected !== null && list.some((s) => s.slo.id === selected) ? <SloDetail project={project} id={selected} /> : null}
      {canEdit ? (
        <section className={styles.panel} aria-labelledby="new-slo-title">
          <h2 id="new-slo-title" className={styles.subtitle}>
            New SLO
          </h2>
          <SloForm
            key={created}
            label="New SLO"
            receivers={receivers.data?.receivers ?? []}
            submitLabel="Create SLO"
            onSubmit={async (v) => {
              await createSlo({ project, ...v });
              setCreated((n) => n + 1);
              await refresh();
            }}
          />
        </section>
      ) : null}
    </section>
  );
}
