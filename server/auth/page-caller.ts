import { headers } from "next/headers";
import { cache } from "react";
import { config } from "../config";
import { ApiError } from "../http/api-error";
import { clientAddress } from "../http/node-server";
import { callerOf, type Caller } from "./access";

/**
 * The caller of the page being rendered, from its request headers (cookies, Authorization and the
 * peer address the Node server stamped), resolved once per render: pages, their guards and their
 * prefetches all see the same caller the API would. An address throttled for wrong admin secrets is
 * nobody here (the proxy already answered its 429 wherever a caller is needed).
 */
export const pageCaller = cache(async (): Promise<Caller | null> => {
  const h = await headers();
  try {
    return await callerOf(new Request("http://page.invalid/", { headers: new Headers(h) }));
  } catch (error) {
    if (error instanceof ApiError && error.code === "rate_limited") return null;
    throw error;
  }
});

/** The address of the page's client, as the API's throttles see it (the peer the Node server stamped). */
export async function pageClientAddress(): Promise<string> {
  return clientAddress(new Request("http://page.invalid/", { headers: new Headers(await headers()) }), config().trustProxy);
}
