"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { QueryError } from "@/components/dashboard/query-error";
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
          <table className="data" aria-label="Projects">
            <thead>
              <tr>
                <th scope="col">Project</th>
                <th scope="col" className="text">
                  Id
                </th>
                <th scope="col" className="text">
                  Your role
                </th>
                <th scope="col" className="text">
                  State
                </th>
              </tr>
            </thead>
            <tbody>
              {projects.data.projects.map((p) => (
                <tr key={p.id}>
                  <td>
                    <Link href={`/settings/projects/${encodeURIComponent(p.id)}`}>{p.name}</Link>
                  </td>
                  <td className={`text ${styles.mono}`}>{p.id}</td>
                  <td className="text">{roleOf(p.id)}</td>
                  <td className="text">
                    {p.archivedAt === null ? (
                      "active"
                    ) : (
                      <span className={`${styles.badge} ${styles.archived}`}>
                        archived <RelativeTime at={p.archivedAt} />
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {instanceOwner && <NewProjectForm />}
    </>
  );
}
