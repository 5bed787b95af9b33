import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { meEndpoints } from "@/lib/api/read/me";
import type { ProjectRole } from "@/lib/auth/roles";
import { signedOutEverywhereSchema } from "@/lib/contracts/me";
import { endpointQuery } from "./endpoint-query";
import { sendJson } from "./mutate";

// Apart from ./auth.ts (sign-in, setup, invitations): every page's header uses these.

/** Who the browser is signed in as (a 401 when nobody: the sign-in pages read it without retrying). */
export const meQuery = () => ({ ...endpointQuery(meEndpoints.me, { params: {}, search: {} }), staleTime: 60_000, retry: false });

/**
 * The signed-in caller's role in a project: undefined while loading, null when they have none (or
 * nobody is signed in). Pages hide what the role cannot do; the API refuses it anyway.
 */
export function useProjectRole(project: string): ProjectRole | null | undefined {
  const me = useQuery(meQuery());
  if (me.isPending) return undefined;
  return me.data?.memberships.find((m) => m.projectId === project)?.role ?? null;
}

/** Ends this browser's session. */
export const signOut = () => sendJson("POST", "/api/v1/auth/sign-out", z.undefined());
/** Ends every session of the signed-in account. */
export const signOutEverywhere = () => sendJson("POST", "/api/v1/auth/sign-out-everywhere", signedOutEverywhereSchema);
