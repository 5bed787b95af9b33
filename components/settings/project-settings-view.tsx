"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { QueryError } from "@/components/dashboard/query-error";
import { roleAtLeast, type ProjectRole } from "@/lib/auth/roles";
import type { ProjectDetail } from "@/lib/contracts/project-admin";
import { projectsQuery } from "@/lib/query/keys";
import { meQuery } from "@/lib/query/auth";
import { auditLogKeys, projectDetailQuery } from "@/lib/query/settings";
import { ArchiveControl } from "./archive-control";
import { ProjectTabs } from "./project-tabs";
import { RelativeTime } from "./relative-time";
import { RenameForm } from "./rename-form";
import { TraceLinkForm } from "./trace-link-form";
import styles from "./settings.module.css";

/** A project's settings: its facts for every member; rename, archive and restore for its owner. */
export function ProjectSettingsView({ project, role }: { project: string; role: ProjectRole }) {
  const qc = useQueryClient();
  const detail = useQuery(projectDetailQuery(project));
  const [done, setDone] = useState("");
  const changed = async (updated: ProjectDetail, what: string) => {
    qc.setQueryData(projectDetailQuery(project).queryKey, updated);
    setDone(what);
    await Promise.all([
      qc.invalidateQueries({ queryKey: projectsQuery().queryKey }),
      qc.invalidateQueries({ queryKey: meQuery().queryKey }),
      qc.invalidateQueries({ queryKey: auditLogKeys(project) }),
    ]);
  };
  const d = detail.data;
  return (
    <>
      <p className="crumbs">
        <Link href="/settings">Settings</Link> / <Link href="/settings/projects">Projects</Link>
      </p>
      <div className="page-head">
        <h1>{d?.name ?? project}</h1>
        {d?.archivedAt != null && <span className={`${styles.badge} ${styles.archived}`}>archived</span>}
      </div>
      <ProjectTabs project={project} role={role} current="" />
      {detail.error && <QueryError error={detail.error} />}
      {detail.isPending && <p className="empty-state">Loading the project…</p>}
      {d && (
        <>
          <section className="panel" aria-labelledby="facts-title">
            <h2 id="facts-title" className="sr-only">
              About this project
            </h2>
            <dl className={styles.facts}>
              <dt>Id</dt>
              <dd className={styles.mono}>{d.id}</dd>
              <dt>Created</dt>
              <dd>
                <RelativeTime at={d.createdAt} />
              </dd>
              <dt>State</dt>
              <dd>
                {d.archivedAt === null ? (
                  "active: its ingest keys send data, its alert rules are evaluated"
                ) : (
                  <>
                    archived <RelativeTime at={d.archivedAt} />: its data stays readable, ingest is refused and alerts are paused
                  </>
                )}
              </dd>
              <dt>Keys</dt>
              <dd>
                {d.keys.active} active, {d.keys.revoked} revoked
                {roleAtLeast(role, "admin") && (
                  <>
                    {" "}
                    · <Link href={`/settings/projects/${encodeURIComponent(project)}/keys`}>manage keys</Link>
                  </>
                )}
              </dd>
              <dt>Your role</dt>
              <dd>{role}</dd>
            </dl>
          </section>
          {role === "owner" ? (
            <>
              <RenameForm project={d} onRenamed={(u) => changed(u, `Renamed to “${u.name}”.`)} />
              <ArchiveControl project={d} onChanged={(u) => changed(u, u.archivedAt === null ? "Restored: ingest and alerts are on again." : "Archived: ingest is refused from now on.")} />
            </>
          ) : (
            <p className="note">Only the project's owners can rename, archive or restore it.</p>
          )}
          <p role="status" className={styles.ok}>
            {done}
          </p>
          <TraceLinkForm project={project} canEdit={roleAtLeast(role, "admin")} />
        </>
      )}
    </>
  );
}
