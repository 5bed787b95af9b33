"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { DataTable, type Column } from "@/components/data-table";
import { QueryError } from "@/components/dashboard/query-error";
import type { ProjectsAnswer } from "@/lib/contracts/projects";
import { projectsQuery } from "@/lib/query/keys";
import { meQuery } from "@/lib/query/auth";
import { NewProjectForm } from "./new-project-form";
import { RelativeTime } from "./relative-time";
import styles from "./settings.module.css";

/** The caller's projects with their role and archive state; instance owners also get the new-project form. */
export function ProjectsSettingsView() {
  const projects = useQuery(projectsQuery());
  const me = useQuery(meQuery());
  const instanceOwner = me.data ? me.data.caller === "admin-secret" || me.data.caller === "open" || me.data.user?.instanceOwner === true : false;
  const roleOf = (id: string) => (instanceOwner ? "owner" : (me.data?.memberships.find((m) => m.projectId === id)?.role ?? "—"));
  const columns: Column<ProjectsAnswer["projects"][number]>[] = [
    { id: "project", header: "Project", cell: (p) => <Link href={`/settings/projects/${encodeURIComponent(p.id)}`}>{p.name}</Link> },
    { id: "id", header: "Id", align: "text", cellClassName: `text ${styles.mono}`, cell: (p) => p.id },
    { id: "role", header: "Your role", align: "text", cell: (p) => roleOf(p.id) },
    {
      id: "state",
      header: "State",
      align: "text",
      cell: (p) =>
        p.archivedAt === null ? (
          "active"
        ) : (
          <span className={`${styles.badge} ${styles.archived}`}>
            archived <RelativeTime at={p.archivedAt} />
          </span>
        ),
    },
  ];
  return (
    <>
      <p className="crumbs">
        <Link href="/settings">Settings</Link>
      </p>
      <div className="page-head">
        <h1>Projects</h1>
        <span className="sub">each project has its own keys, alert rules, members and audit log</span>
      </div>
      {projects.error && <QueryError error={projects.error} />}
      <section className="panel table-wrap" aria-labelledby="projects-title">
        <h2 id="projects-title" className="sr-only">
          Your projects
        </h2>
        {projects.isPending ? (
          <p className="empty-state">Loading projects…</p>
        ) : !projects.data ? null : projects.data.projects.length === 0 ? (
          <p className="empty-state">You are not a member of any project yet.</p>
        ) : (
          <DataTable columns={columns} rows={projects.data.projects} rowKey={(p) => p.id} ariaLabel="Projects" />
        )}
      </section>
      {instanceOwner && <NewProjectForm />}
    </>
  );
}
