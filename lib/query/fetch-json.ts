import type { z } from "zod";
import { errorEnvelopeSchema } from "@/lib/contracts/errors";

/** An API answer in the error envelope, kept whole so a view can say what went wrong. */
export class ApiFetchError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** GET → parse with the contract schema; the error envelope (or any non-2xx) throws. */
export async function fetchJson<S extends z.ZodType>(url: string, schema: S, signal?: AbortSignal): Promise<z.infer<S>> {
  const res = await fetch(url, { signal, headers: { accept: "application/json" } });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const envelope = errorEnvelopeSchema.safeParse(body);
    if (envelope.success) throw new ApiFetchError(res.status, envelope.data.error.code, envelope.data.error.message);
    throw new ApiFetchError(res.status, "http_error", `the server answered ${res.status}`);
  }
  return schema.parse(body);
}
