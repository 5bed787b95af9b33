import { endpointKey } from "@/lib/api/endpoint";
import { authProvidersEndpoints } from "@/lib/api/read/auth-providers";
import { endpointQuery } from "./endpoint-query";

const input = { params: {}, search: {} } as const;

/** The React Query key of the sign-in methods (one entry: the endpoint takes no parameters). */
export const authProvidersKey = () => endpointKey(authProvidersEndpoints.authProviders, input);

/** The sign-in methods this instance offers; they change only with a restart, so they are never refetched on their own. */
export const authProvidersQuery = () => ({ ...endpointQuery(authProvidersEndpoints.authProviders, input), staleTime: Infinity });
