import { ApiError } from "./api-error";

/** The names a loopback-bound Faultline is reached by. */
export const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"] as const;

/** The host name of a `Host` header: lower-case, without the port and a trailing dot. */
export function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  const name = h.startsWith("[") ? h.slice(0, h.indexOf("]") + 1) : h.replace(/:\d*$/, "");
  return name.replace(/\.$/, "");
}

/**
 * Whether a request's `Host` may be served: the loopback names, or one of FAULTLINE_ALLOWED_HOSTS
 * (`*` accepts any). Without this a web page the user visits could point a name it controls at
 * 127.0.0.1 (DNS rebinding) and read the dashboard as same-origin.
 */
export function hostAllowed(header: string | null, allowed: readonly string[]): boolean {
  if (allowed.includes("*")) return true;
  if (header === null || header.trim() === "") return false;
  const name = hostName(header);
  return (LOOPBACK_HOSTS as readonly string[]).includes(name) || allowed.includes(name) || allowed.includes(name.replace(/^\[(.*)\]$/, "$1"));
}

/** The 421 every surface answers for a host name it does not serve. */
export function misdirected(): ApiError {
  return new ApiError(
    "misdirected_request",
    "this host name is not served here; add it to FAULTLINE_ALLOWED_HOSTS to reach Faultline by it",
  );
}

/** Throws the 421 unless the request's `Host` is allowed. */
export function checkHost(req: Request, allowed: readonly string[]): void {
  if (!hostAllowed(req.headers.get("host"), allowed)) throw misdirected();
}
