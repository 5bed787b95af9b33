import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { authEndpoints } from "@/lib/api/auth-endpoints";
import type { ProjectRole } from "@/lib/auth/roles";
import { invitationAcceptedSchema, signedInSchema, signedOutEverywhereSchema, type SetupBody, type SignInBody } from "@/lib/contracts/auth";
import { endpointQuery } from "./endpoint-query";
import { sendJson } from "./mutate";

/** Who the browser is signed in as (a 401 when nobody: the sign-in pages read it without retrying). */
export const meQuery = () => ({ ...endpointQuery(authEndpoints.me, { params: {}, search: {} }), staleTime: 60_000, retry: false });

/** What an invitation link offers (no sign-in needed). */
export const invitationInfoQuery = (token: string) => ({ ...endpointQuery(authEndpoints.invitation, { params: { token }, search: {} }), retry: false });

/**
 * The signed-in caller's role in a project: undefined while loading, null when they have none (or
 * nobody is signed in). Pages hide what the role cannot do; the API refuses it anyway.
 */
export function useProjectRole(project: string): ProjectRole | null | undefined {
  const me = useQuery(meQuery());
  if (me.isPending) return undefined;
  return me.data?.memberships.find((m) => m.projectId === project)?.role ?? null;
}

/** Signs in; the session arrives as cookies. */
export const signIn = (body: SignInBody) => sendJson("POST", "/api/v1/auth/sign-in", signedInSchema, body);
/** Creates the instance owner from a setup link's token (signed in afterwards). */
export const completeSetup = (body: SetupBody) => sendJson("POST", "/api/v1/auth/setup", signedInSchema, body);
/** Ends this browser's session. */
export const signOut = () => sendJson("POST", "/api/v1/auth/sign-out", z.undefined());
/** Ends every session of the signed-in account. */
export const signOutEverywhere = () => sendJson("POST", "/api/v1/auth/sign-out-everywhere", signedOutEverywhereSchema);

/** Accepts an invitation: an empty body joins as the signed-in user; an account's fields create one. */
export const acceptInvitation = (token: string, account?: { email: string; name: string; password: string }) =>
  sendJson("POST", `/api/v1/auth/invitations/${encodeURIComponent(token)}`, invitationAcceptedSchema, account ?? {});
