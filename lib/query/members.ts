import { z } from "zod";
import { authEndpoints } from "@/lib/api/auth-endpoints";
import type { ProjectRole } from "@/lib/auth/roles";
import { invitationCreatedSchema, memberSchema, type InvitationCreate } from "@/lib/contracts/auth";
import { endpointQuery } from "./endpoint-query";
import { sendJson } from "./mutate";

const projectPath = (project: string) => `/api/v1/projects/${encodeURIComponent(project)}`;

/** A project's members with their roles. */
export const membersQuery = (project: string) => endpointQuery(authEndpoints.members, { params: { project }, search: {} });

/** A project's pending invitations (admins). */
export const invitationsQuery = (project: string) => endpointQuery(authEndpoints.invitations, { params: { project }, search: {} });

/** Gives a member another role (admins; only owners touch the owner role). */
export const changeMemberRole = (project: string, userId: string, role: ProjectRole) =>
  sendJson("PATCH", `${projectPath(project)}/members/${encodeURIComponent(userId)}`, memberSchema, { role });

/** Removes a member from the project. */
export const removeMember = (project: string, userId: string) => sendJson("DELETE", `${projectPath(project)}/members/${encodeURIComponent(userId)}`, z.undefined());

/** Creates an invitation; the answer holds its one-time link. */
export const createInvitation = (project: string, invitation: InvitationCreate) => sendJson("POST", `${projectPath(project)}/invitations`, invitationCreatedSchema, invitation);

/** Revokes a pending invitation: its link stops working. */
export const revokeInvitation = (project: string, id: number) => sendJson("DELETE", `${projectPath(project)}/invitations/${id}`, z.undefined());
