/** An answer the Node server writes itself (node-server.ts's DoorRefusal). */
interface DoorRefusal {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The headers every JSON API answer carries (next.config.js sets them for routes Next answers). */
export const API_ANSWER_HEADERS: Record<string, string> = {
  "content-type": "application/json",
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "referrer-policy": "no-referrer",
};

const envelope = (status: number, code: string, message: string): DoorRefusal => ({
  status,
  headers: { ...API_ANSWER_HEADERS, "cache-control": "no-store" },
  body: JSON.stringify({ error: { code, message } }),
});

const page = (status: number, title: string, message: string): DoorRefusal => ({
  status,
  headers: {
    "content-type": "text/html; charset=utf-8",
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
  },
  body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} · Faultline</title></head><body><main><h1>${title}</h1><p>${message}</p><p><a href="/">Go to the Overview</a></p></main></body></html>`,
});

/** True when the path has a `%` escape that is not two hex digits or does not decode to UTF-8. */
function malformedEscapes(path: string): boolean {
  if (!path.includes("%")) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/** True when a segment is `.` or `..`, written out or percent-encoded. */
function hasDotSegment(path: string): boolean {
  return path.split("/").some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
}

const isApi = (path: string) => path === "/api" || path.startsWith("/api/") || path === "/v1" || path.startsWith("/v1/");

/**
 * Refuses, before Next parses it, an address Next would answer outside the envelope: a malformed
 * percent escape (Next fails decoding it with a plain 500) is a 400; a `.`/`..` segment (browsers and
 * HTTP clients remove them, so only hand-made requests carry one) is a 400; the bare `/api` is a 404
 * in the envelope. API paths get the JSON envelope, pages a small HTML page. Null: the path is fine.
 */
export function checkRequestPath(url: string): DoorRefusal | null {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const api = isApi(path);
  if (malformedEscapes(path)) {
    return api
      ? envelope(400, "bad_request", "the address has a malformed percent-escape: each % must be followed by two hex digits of UTF-8")
      : page(400, "Malformed address", "This address has a malformed percent-escape (each % must be followed by two hex digits of UTF-8).");
  }
  if (hasDotSegment(path)) {
    return api
      ? envelope(400, "bad_request", "the address has a '.' or '..' segment; send the resolved path")
      : page(400, "Malformed address", "This address has a “.” or “..” segment; open the resolved address instead.");
  }
  if (path === "/api" || path === "/api/") return envelope(404, "not_found", "no API answers at /api; the read and ingest APIs live under /api/v1");
  return null;
}
