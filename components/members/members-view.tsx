"use client";

import Link from "next/link";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { PROJECT_ROLES, roleAtLeast, type ProjectRole } from "@/lib/auth/roles";
import { DataTable, type Column } from "@/components/data-table";
import { formatUtcDay } from "@/lib/charts/time-format";
import { ProjectTabs } from "../settings/project-tabs";
import type { Invitation, Member } from "@/lib/contracts/auth";
import { changeMemberRole, invitationsQuery, membersQuery, removeMember, revokeInvitation } from "@/lib/query/members";
import { InviteForm } from "./invite-form";
import styles from "./members.module.css";

/**
 * A project's members and pending invitations. Everyone in the project sees who else is; admins
 * change roles, remove members and invite; only owners touch the owner role (the API enforces the
 * same rules, including keeping the last owner).
 */
export function MembersView({ project, role, selfId }: { project: string; role: ProjectRole; selfId: string | null }) {
  const qc = useQueryClient();
  const members = useQuery(membersQuery(project));
  const admin = roleAtLeast(role, "admin");
  const invitations = useQuery({ ...invitationsQuery(project), enabled: admin });
  const [problem, setProblem] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const refresh = () => Promise.all([qc.invalidateQueries({ queryKey: membersQuery(project).queryKey }), qc.invalidateQueries({ queryKey: invitationsQuery(project).queryKey })]);
  const act = (work: Promise<unknown>) =>
    work.then(
      () => {
        setProblem(null);
        return refresh();
      },
      (error: unknown) => setProblem(error instanceof Error ? error.message : String(error)),
    );
  const manageable = (m: Member) => admin && (role === "owner" || m.role !== "owner");
  const roleChoices = PROJECT_ROLES.filter((r) => role === "owner" || r !== "owner");
  const memberColumns: Column<Member>[] = [
    { id: "name", header: "Name", cell: (m) => `${m.name}${m.userId === selfId ? " (you)" : ""}` },
    { id: "email", header: "Email", cell: (m) => m.email },
    {
      id: "role",
      header: "Role",
      cell: (m) =>
        manageable(m) ? (
          <select aria-label={`Role of ${m.email}`} value={m.role} onChange={(e) => void act(changeMemberRole(project, m.userId, e.target.value as ProjectRole))}>
            {roleChoices.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        ) : (
          m.role
        ),
    },
    { id: "joined", header: "Joined", cell: (m) => formatUtcDay(m.joinedAt) },
  ];
  if (admin) {
    memberColumns.push({
      id: "actions",
      header: "Actions",
      cell: (m) =>
        !manageable(m) ? null : removing === m.userId ? (
          <span className={styles.actions}>
            <button type="button" className="btn" onClick={() => void act(removeMember(project, m.userId)).finally(() => setRemoving(null))}>
              Confirm remove
            </button>
            <button type="button" className="btn" onClick={() => setRemoving(null)}>
              Keep
            </button>
          </span>
        ) : (
          <button type="button" className="btn" onClick={() => setRemoving(m.userId)}>
            Remove
          </button>
        ),
    });
  }
  const invitationColumns: Column<Invitation>[] = [
    { id: "for", header: "For", cell: (i) => i.email ?? "anyone with the link" },
    { id: "role", header: "Role", cell: (i) => i.role },
    { id: "createdBy", header: "Created by", cell: (i) => i.createdBy ?? "admin secret" },
    { id: "expires", header: "Expires", cell: (i) => formatUtcDay(i.expiresAt) },
    {
      id: "actions",
      header: "Actions",
      cell: (i) => (
        <button type="button" className="btn" onClick={() => void act(revokeInvitation(project, i.id))}>
          Revoke
        </button>
      ),
    },
  ];
  return (
    <section className={styles.page} aria-labelledby="members-title">
      <p className="crumbs">
        <Link href="/settings">Settings</Link> / <Link href="/settings/projects">Projects</Link> /{" "}
        <Link href={`/settings/projects/${encodeURIComponent(project)}`}>{project}</Link>
      </p>
      <div className="page-head">
        <h1 id="members-title">Members</h1>
        <span className="sub">
          owners manage the project and its members, admins keys, alert rules and members, members read and mute alerts, viewers read; your role: {role}
        </span>
      </div>
      <ProjectTabs project={project} role={role} current="/members" />
      {problem ? (
        <p role="alert" className={styles.problem}>
          {problem}
        </p>
      ) : null}
      <div className={styles.panel}>
        {members.isPending ? (
          <p className={styles.muted}>Loading…</p>
        ) : members.error ? (
          <p role="alert">Could not load the members: {members.error.message}</p>
        ) : (
          <DataTable className={styles.table} align={{}} columns={memberColumns} rows={members.data.members} rowKey={(m) => m.userId} ariaLabel="Members" />
        )}
      </div>
      {admin ? (
        <section className={styles.panel} aria-labelledby="invite-title">
          <h2 id="invite-title">Invite someone</h2>
          <InviteForm project={project} canInviteOwner={role === "owner"} onCreated={refresh} />
        </section>
      ) : null}
      {admin ? (
        <section className={styles.panel} aria-labelledby="pending-title">
          <h2 id="pending-title">Pending invitations</h2>
          {invitations.data && invitations.data.invitations.length > 0 ? (
            <DataTable className={styles.table} align={{}} columns={invitationColumns} rows={invitations.data.invitations} rowKey={(i) => String(i.id)} ariaLabel="Pending invitations" />
          ) : (
            <p className={styles.muted}>{invitations.error ? `Could not load the invitations: ${invitations.error.message}` : "No pending invitations."}</p>
          )}
        </section>
      ) : null}
    </section>
  );
}
