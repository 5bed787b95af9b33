"use client";

import Link from "next/link";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { PROJECT_ROLES, roleAtLeast, type ProjectRole } from "@/lib/auth/roles";
import { ProjectTabs } from "../settings/project-tabs";
import type { Member } from "@/lib/contracts/auth";
import { changeMemberRole, invitationsQuery, membersQuery, removeMember, revokeInvitation } from "@/lib/query/members";
import { InviteForm } from "./invite-form";
import styles from "./members.module.css";

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

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
          <table className={styles.table} aria-label="Members">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                {admin ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {members.data.members.map((m) => (
                <tr key={m.userId}>
                  <td>
                    {m.name}
                    {m.userId === selfId ? " (you)" : ""}
                  </td>
                  <td>{m.email}</td>
                  <td>
                    {manageable(m) ? (
                      <select aria-label={`Role of ${m.email}`} value={m.role} onChange={(e) => void act(changeMemberRole(project, m.userId, e.target.value as ProjectRole))}>
                        {roleChoices.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    ) : (
                      m.role
                    )}
                  </td>
                  <td>{day(m.joinedAt)}</td>
                  {admin ? (
                    <td>
                      {manageable(m) ? (
                        removing === m.userId ? (
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
                        )
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
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
            <table className={styles.table} aria-label="Pending invitations">
              <thead>
                <tr>
                  <th scope="col">For</th>
                  <th scope="col">Role</th>
                  <th scope="col">Created by</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {invitations.data.invitations.map((i) => (
                  <tr key={i.id}>
                    <td>{i.email ?? "anyone with the link"}</td>
                    <td>{i.role}</td>
                    <td>{i.createdBy ?? "admin secret"}</td>
                    <td>{day(i.expiresAt)}</td>
                    <td>
                      <button type="button" className="btn" onClick={() => void act(revokeInvitation(project, i.id))}>
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className={styles.muted}>{invitations.error ? `Could not load the invitations: ${invitations.error.message}` : "No pending invitations."}</p>
          )}
        </section>
      ) : null}
    </section>
  );
}
