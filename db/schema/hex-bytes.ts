import { customType as pgCustomType } from "drizzle-orm/pg-core";
import { customType } from "drizzle-orm/sqlite-core";

// Lowercase hex text (an argument hash: 8 to 64 hex digits) is stored as the bytes it spells, half
// its size in the row. A hash of an odd number of digits cannot be spelled in whole bytes: it is
// stored padded to 32 bytes with its digit count in a 33rd, a length no even hash reaches, so every
// value reads back exactly as it was written.

const WHOLE_BYTES = 32;

/** The stored bytes of a lowercase hex text. */
export function hexToBytes(hex: string): Buffer {
  if (hex.length % 2 === 0) return Buffer.from(hex, "hex");
  return Buffer.from(hex.padEnd(2 * WHOLE_BYTES, "0") + hex.length.toString(16).padStart(2, "0"), "hex");
}

/** The hex text stored as `bytes`. */
export function bytesToHex(bytes: Uint8Array): string {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length <= WHOLE_BYTES) return buffer.toString("hex");
  return buffer.subarray(0, WHOLE_BYTES).toString("hex").slice(0, buffer[WHOLE_BYTES]);
}

/** SQLite's column kind of hex text stored as bytes (`blob`), read and written as the text. */
export const hexBytesSqlite = customType<{ data: string; driverData: Buffer }>({
  dataType: () => "blob",
  toDriver: hexToBytes,
  fromDriver: bytesToHex,
});

/** PostgreSQL's twin of `hexBytesSqlite` (`bytea`). */
export const hexBytesPg = pgCustomType<{ data: string; driverData: Buffer }>({
  dataType: () => "bytea",
  toDriver: hexToBytes,
  fromDriver: bytesToHex,
});
