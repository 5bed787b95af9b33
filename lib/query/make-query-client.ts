import { isServer, QueryClient } from "@tanstack/react-query";
import { ApiFetchError } from "./fetch-json";

// A 4xx answer will not change on a second try (a bad parameter, an unknown project); a server that
// did not answer gets one more try before the view says so and offers its retry button.
const retry = (failures: number, err: unknown) => !(err instanceof ApiFetchError && err.status >= 400 && err.status < 500) && failures < 1;

function createClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Data prefetched on the server is fresh for the first paint; refetch after that.
      queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry },
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
