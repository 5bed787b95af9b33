import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/** scrypt cost parameters, stored in every hash so that raising them later keeps old hashes verifiable. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** 2^15 × 8 × 1: about 32 MiB and tens of milliseconds per hash (OWASP's scrypt minimum is 2^17 × 8 × 1 with 64 MiB, or this with p = 1 on small hosts). */
export const PASSWORD_PARAMS: ScryptParams = { N: 32768, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;

/** A stored hash taken apart. */
export interface ParsedHash extends ScryptParams {
  salt: Buffer;
  hash: Buffer;
}

function derive(password: string, salt: Buffer, params: ScryptParams, length: number): Promise<Buffer> {
  // Node refuses scrypt above `maxmem` (32 MiB by default), which 2^15 × 8 needs exactly: allow twice the need.
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r * params.p };
  return new Promise((resolve, reject) => scrypt(password.normalize("NFC"), salt, length, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** `scrypt$N$r$p$salt$hash` (salt and hash base64url): a fresh random salt per call, so equal passwords never share a hash. */
export async function hashPassword(password: string, params: ScryptParams = PASSWORD_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, params, KEY_BYTES);
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

const isPowerOfTwo = (n: number) => Number.isInteger(n) && n > 1 && (n & (n - 1)) === 0;

/**
 * A stored hash's parts, or null when it is not one this server wrote. The bounds keep a tampered
 * row from asking for gigabytes of memory.
 */
export function parsePasswordHash(stored: string): ParsedHash | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [N, r, p] = parts.slice(1, 4).map((v) => (/^\d{1,8}$/.test(v!) ? Number(v) : NaN)) as [number, number, number];
  if (!isPowerOfTwo(N) || N < 1024 || N > 1_048_576 || !(r >= 1 && r <= 32) || !(p >= 1 && p <= 16)) return null;
  const salt = Buffer.from(parts[4]!, "base64url");
  const hash = Buffer.from(parts[5]!, "base64url");
  if (salt.length < 8 || hash.length < 16 || hash.length > 128) return null;
  return { N, r, p, salt, hash };
}

/** Whether `password` matches `stored`, compared in constant time; a malformed hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed, parsed.hash.length);
  return timingSafeEqual(candidate, parsed.hash);
}

/** True when a hash was made with other parameters than today's: it is replaced at the next sign-in. */
export function needsRehash(stored: string): boolean {
  const parsed = parsePasswordHash(stored);
  return !parsed || parsed.N !== PASSWORD_PARAMS.N || parsed.r !== PASSWORD_PARAMS.r || parsed.p !== PASSWORD_PARAMS.p || parsed.hash.length !== KEY_BYTES;
}

let decoy: Promise<string> | undefined;

/**
 * Spends the time of one verification without an account: a sign-in with an unknown email then
 * takes as long as one with a wrong password, so timing does not tell which emails have accounts.
 */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  await verifyPassword(password, await (decoy ??= hashPassword(randomBytes(16).toString("hex"))));
  return false;
}
