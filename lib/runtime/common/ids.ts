/** Generates identifiers. Injected so tests get stable ids. */
export type IdSource = (kind: "run" | "trace" | "span" | "record" | "call") => string;

const POOL_SIZE = 4096;
const pool = new Uint8Array(POOL_SIZE);
let offset = POOL_SIZE;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** `bytes` random bytes as lowercase hex, from the platform CSPRNG (refilled in blocks for speed). */
export function randomHex(bytes: number): string {
  if (offset + bytes > POOL_SIZE) {
    crypto.getRandomValues(pool);
    offset = 0;
  }
  let out = "";
  for (let i = 0; i < bytes; i++) out += HEX[pool[offset + i]!];
  offset += bytes;
  return out;
}

/**
 * Default ids: 32 hex for runs and traces (OTLP trace-id sized), 16 hex for spans and records
 * (OTLP span-id sized), `call_` + 16 hex for calls the caller did not name.
 */
export const randomIds: IdSource = (kind) => {
  switch (kind) {
    case "run":
    case "trace":
      return randomHex(16);
    case "call":
      return `call_${randomHex(8)}`;
    default:
      return randomHex(8);
  }
};

/** Deterministic ids (`<kind>_<n>`) for tests and reproducible demos. */
export function sequentialIds(): IdSource {
  let n = 0;
  return (kind) => `${kind}_${++n}`;
}
