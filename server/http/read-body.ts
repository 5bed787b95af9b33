import { gunzipSync } from "node:zlib";
import { LIMITS } from "@/lib/contracts";
import { ApiError } from "./api-error";
import { clockMs } from "./node-server";

const tooLarge = () => new ApiError("payload_too_large", `request body exceeds ${LIMITS.maxBodyBytes} bytes`);

/**
 * Reads a request body up to the limit, gunzipping when asked; the limit applies to the
 * decompressed size too, so a small gzip bomb is cut off instead of filling memory. The whole body
 * must arrive by `deadline` (process clock, ms; see `clockMs`): a client trickling it a few bytes a
 * second gets a 408 and its ingest slot back instead of holding it for minutes.
 */
export async function readBody(req: Request, acceptedTypes: readonly string[], time?: { deadline: number; timeoutMs: number }): Promise<Buffer> {
  const type = contentTypeOf(req);
  if (!acceptedTypes.includes(type)) {
    throw new ApiError("unsupported_media_type", `content-type must be ${acceptedTypes.join(" or ")}; got ${type || "none"}`);
  }
  const encoding = (req.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "identity" && encoding !== "gzip") {
    throw new ApiError("unsupported_media_type", `content-encoding must be gzip or identity; got ${encoding}`);
  }
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > LIMITS.maxBodyBytes) throw tooLarge();
  const raw = await readLimited(req, time);
  if (encoding === "identity") return raw;
  try {
    return gunzipSync(raw, { maxOutputLength: LIMITS.maxBodyBytes });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge();
    throw new ApiError("bad_request", "body is not valid gzip");
  }
}

/** The request's media type, lower-cased and without parameters ("" when absent). */
export function contentTypeOf(req: Request): string {
  return (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

const timedOut = (seconds: number) =>
  new ApiError("request_timeout", `the request body did not arrive within ${seconds} s; send it faster or in smaller batches`, undefined, {
    Connection: "close",
  });

async function readLimited(req: Request, time: { deadline: number; timeoutMs: number } | undefined): Promise<Buffer> {
  if (!req.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<"expired">((resolve) => {
    if (time) timer = setTimeout(() => resolve("expired"), Math.max(0, time.deadline - clockMs()));
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), expired]);
      if (next === "expired") {
        reader.cancel().catch(() => undefined);
        throw timedOut(time!.timeoutMs / 1000);
      }
      const { done, value } = next;
      if (done) break;
      size += value.byteLength;
      if (size > LIMITS.maxBodyBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks, size);
}
