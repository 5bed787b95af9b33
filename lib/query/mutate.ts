import type { z } from "zod";
import { fetchJson } from "./fetch-json";

/** The cookie the server sets next to the session cookie, for the page to echo (server/auth/cookies.ts). */
const CSRF_COOKIE = "faultline_csrf";

/** The CSRF header for a state-changing request: `{ "x-faultline-csrf": <value of the faultline_csrf cookie> }`, or {} when there is none (setup mode, admin secret). */
export function csrfHeader(): Record<string, string> {
  if (typeof document === "undefined") return {};
  for (const part of document.cookie.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === CSRF_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return value ? { "x-faultline-csrf": value } : {};
    }
  }
  return {};
}

/** fetch() with a JSON body (if any), the CSRF header, and the error envelope turned into ApiFetchError (lib/query/fetch-json.ts); answers the parsed JSON checked with `schema`, or undefined for 204. */
export async function sendJson<S extends z.ZodType>(method: "POST" | "PATCH" | "PUT" | "DELETE", url: string, schema: S, body?: unknown): Promise<z.infer<S>> {
  const init: RequestInit = {
    method,
    headers: { ...csrfHeader(), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
  return fetchJson(url, schema, init);
}
