import { authEndpoints } from "@/lib/api/auth-endpoints";
import { invitationAcceptedSchema, signedInSchema, type SetupBody, type SignInBody } from "@/lib/contracts/auth";
import { endpointQuery } from "./endpoint-query";
import { sendJson } from "./mutate";

export { meQuery, signOut, signOutEverywhere, useProjectRole } from "./me";

/** What an invitation link offers (no sign-in needed). */
export const invitationInfoQuery = (token: string) => ({ ...endpointQuery(authEndpoints.invitation, { params: { token }, search: {} }), retry: false });

/** Signs in; the session arrives as cookies. */
export const signIn = (body: SignInBody) => sendJson("POST", "/api/v1/auth/sign-in", signedInSchema, body);
/** Creates the instance owner from a setup link's token (signed in afterwards). */
export const completeSetup = (body: SetupBody) => sendJson("POST", "/api/v1/auth/setup", signedInSchema, body);
/** Accepts an invitation: an empty body joins as the signed-in user; an account's fields create one. */
export const acceptInvitation = (token: string, account?: { email: string; name: string; password: string }) =>
  sendJson("POST", `/api/v1/auth/invitations/${encodeURIComponent(token)}`, invitationAcceptedSchema, account ?? {});
