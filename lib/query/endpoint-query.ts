import { queryOptions } from "@tanstack/react-query";
import type { z } from "zod";
import { endpointKey, endpointUrl, type Endpoint, type EndpointInput } from "@/lib/api/endpoint";
import { fetchJson } from "./fetch-json";

/**
 * React Query options of one endpoint call: the key comes from the endpoint descriptor, so the
 * server's prefetch (`server/http/define-route.ts`) seeds exactly the entry this reads.
 */
export function endpointQuery<Q extends z.ZodObject, R extends z.ZodType, P extends string>(endpoint: Endpoint<Q, R, P>, input: EndpointInput<P>) {
  return queryOptions({
    queryKey: endpointKey(endpoint, input),
    queryFn: ({ signal }): Promise<z.output<R>> => fetchJson(endpointUrl(endpoint, input), endpoint.response, signal),
  });
}
