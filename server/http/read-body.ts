import { gunzipSync } from "node:zlib";
import { LIMITS } from "@/lib/contracts";
import { ApiError } from "./api-error";

const tooLarge = () => new ApiError("payload_too_large", `request body exceeds ${LIMITS.maxBodyBytes} bytes`);

/**
 * Reads a request body up to the limit, gunzipping when asked; the limit applies to the
 * decompressed size too, so a small gzip bomb is cut off instead of filling memory.
 */
export async function readBody(req: Request, acceptedTypes: readonly string[]): Promise<Buffer> {
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
  const raw = await readLimited(req);
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

async function readLimited(req: Request): Promise<Buffer> {
  if (!req.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > LIMITS.maxBodyBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}
