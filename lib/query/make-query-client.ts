import { isServer, QueryClient } from "@tanstack/react-query";

function createClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Data prefetched on the server is fresh for the first paint; refetch after that.
      queries: { staleTime: 30_000, refetchOnWindowFocus: false },
    },
  });
}

let browserClient: QueryClient | undefined;

/** A new client per server request (no cross-request leaks); one per browser tab. */
export function makeQueryClient(): QueryClient {
  if (isServer) return createClient();
  browserClient ??= createClient();
  return browserClient;
}
