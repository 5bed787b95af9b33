import type { z } from "zod";
import { errorEnvelopeSchema } from "@/lib/contracts/errors";

/** An API answer that was not a success: carries the envelope's code and message. */
export class ApiFetchError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Fetches JSON and validates it with the contract schema; an error envelope becomes an ApiFetchError; 204 (no body) answers undefined. */
export async function fetchJson<S extends z.ZodType>(url: string, schema: S, initOrSignal?: RequestInit | AbortSignal): Promise<z.infer<S>> {
  const init: RequestInit = initOrSignal instanceof AbortSignal ? { signal: initOrSignal } : (initOrSignal ?? {});
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers: { accept: "application/json", ...init.headers } });
  } catch (err) {
    // An abort is the caller's own doing; anything else means the server did not answer at all.
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new ApiFetchError(0, "unreachable", "the Faultline server could not be reached");
  }
  if (res.status === 204) return undefined as z.infer<S>;
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const envelope = errorEnvelopeSchema.safeParse(body);
    throw envelope.success
      ? new ApiFetchError(res.status, envelope.data.error.code, envelope.data.error.message)
      : new ApiFetchError(res.status, "http_error", `request failed with status ${res.status}`);
  }
  return schema.parse(body);
}
