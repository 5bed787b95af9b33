"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useState } from "react";
import { DataTable, type Column } from "@/components/data-table";
import { PageSteps } from "@/components/data-table/page-steps";
import { QueryError } from "@/components/dashboard/query-error";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { AUDIT_ACTION_LABELS, describeAuditDetail } from "@/lib/audit/labels";
import { formatTime } from "@/lib/charts/time-format";
import type { ProjectRole } from "@/lib/auth/roles";
import { AUDIT_ACTIONS, type AuditEntry } from "@/lib/contracts/audit";
import type { PageInfo } from "@/lib/contracts/paging";
import { useKeptQuery } from "@/lib/query/use-kept-query";
import { auditLogQuery, projectDetailQuery } from "@/lib/query/settings";
import { ProjectTabs } from "./project-tabs";
import styles from "./settings.module.css";

const count = (n: number) => n.toLocaleString("en-US");

/** "1–100 of 260 entries", "3 entries", "no entries". */
function describePage(page: PageInfo | undefined): string {
  if (page === undefined) return "…";
  if (page.total === 0) return "no entries";
  if (page.offset >= page.total) return `past the last of ${count(page.total)} entries`;
  const last = Math.min(page.offset + page.limit, page.total);
  if (page.offset === 0 && last === page.total) return `${count(page.total)} ${page.total === 1 ? "entry" : "entries"}`;
  return `${count(page.offset + 1)}–${count(last)} of ${count(page.total)} entries`;
}

/** The project's audit log, newest first: who did what to what, when and from where; filtered by action or actor, paged. */
export function AuditView({ project, role }: { project: string; role: ProjectRole }) {
  const params = useSearchParams();
  const pathname = usePathname();
  const { zone } = useTimeZone();
  const search = Object.fromEntries(params.entries());
  const log = useKeptQuery(auditLogQuery(project, search));
  const detail = useQuery(projectDetailQuery(project));
  const [actor, setActor] = useState(search.actor ?? "");
  const [seenActor, setSeenActor] = useState(search.actor);
  // Back/forward change the URL under the field: follow it (state reset during render).
  if (search.actor !== seenActor) {
    setSeenActor(search.actor);
    setActor(search.actor ?? "");
  }
  const go = (patch: Partial<Record<"action" | "actor" | "offset", string>>) => {
    const next = new URLSearchParams(params.toString());
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined || v === "") next.delete(k);
      else next.set(k, v);
    }
    const qs = next.toString();
    window.history.pushState(null, "", qs ? `${pathname}?${qs}` : pathname);
  };
  const page = log.data?.page;
  return (
    <>
      <p className="crumbs">
        <Link href="/settings">Settings</Link> / <Link href="/settings/projects">Projects</Link> /{" "}
        <Link href={`/settings/projects/${encodeURIComponent(project)}`}>{detail.data?.name ?? project}</Link>
      </p>
      <div className="page-head">
        <h1>Audit log</h1>
        <span className="sub">changes to the project, its keys, members and alert rules, and its members&apos; sign-ins</span>
      </div>
      <ProjectTabs project={project} role={role} current="/audit" />
      <form
        className={`filter-bar ${styles.form}`}
        role="search"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          go({ actor: actor.trim(), offset: undefined });
        }}
      >
        <label>
          Action
          <select name="action" value={search.action ?? ""} onChange={(e) => go({ action: e.target.value, offset: undefined })}>
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {AUDIT_ACTION_LABELS[a]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Who
          <input name="actor" type="search" value={actor} placeholder="an email, cli, admin secret…" onChange={(e) => setActor(e.target.value)} />
        </label>
        <button type="submit" className="btn">
          Filter
        </button>
        {(search.action || search.actor) && (
          <button type="button" className="btn" onClick={() => go({ action: undefined, actor: undefined, offset: undefined })}>
            Clear filters
          </button>
        )}
      </form>
      {log.error && <QueryError error={log.error} stale={log.stale} />}
      <div className="table-pager">
        <span className="sub" aria-live="polite">
          {describePage(page)}
        </span>
        {page && page.total > page.limit && <PageSteps page={page} go={(offset) => go({ offset: offset > 0 ? String(offset) : undefined })} label="Pages of the audit log" />}
      </div>
      <section className="panel table-wrap" aria-label="Audit entries">
        {log.isPending ? (
          <p className="empty-state">Loading the audit log…</p>
        ) : !log.data ? null : log.data.entries.length === 0 ? (
          <p className="empty-state">{search.action || search.actor ? "No entries match these filters." : "Nothing recorded yet."}</p>
        ) : (
          <DataTable columns={auditColumns(zone)} rows={log.data.entries} rowKey={(e) => String(e.id)} rowAttributes={(e) => ({ "data-action": e.action })} ariaLabel="Audit log" />
        )}
      </section>
    </>
  );
}

/** The audit log's columns; times in the viewer's zone. */
function auditColumns(zone: string): Column<AuditEntry>[] {
  return [
    {
      id: "when",
      header: "When",
      cell: (e) => (
        <time dateTime={new Date(e.at).toISOString()} title={new Date(e.at).toISOString()}>
          {formatTime(e.at, zone)}
        </time>
      ),
    },
    { id: "who", header: "Who", align: "text", cell: (e) => e.actorLabel },
    {
      id: "action",
      header: "Action",
      align: "text",
      cell: (e) => {
        const extra = describeAuditDetail(e.action, e.detail);
        return (
          <>
            {AUDIT_ACTION_LABELS[e.action]}
            {extra && <span className={styles.hint}> {extra}</span>}
          </>
        );
      },
    },
    { id: "target", header: "Target", align: "text", cellClassName: `text ${styles.mono}`, cell: (e) => e.target ?? "—" },
    { id: "address", header: "Address", align: "text", cellClassName: `text ${styles.mono}`, cell: (e) => e.address ?? "—" },
  ];
}
