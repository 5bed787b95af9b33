import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, parsePasswordHash, PASSWORD_PARAMS, verifyPassword } from "@/server/auth/password";

// Cheap parameters where the cost is not the subject: scrypt at 2^15 takes tens of milliseconds.
const CHEAP = { N: 1024, r: 8, p: 1 };

describe("password hashing (scrypt)", () => {
  it("stores its parameters, a 16-byte salt and a 32-byte hash in the hash, and reads them back", async () => {
    const stored = await hashPassword("correct horse battery staple", { N: 2048, r: 4, p: 2 });
    expect(stored).toMatch(/^scrypt\$2048\$4\$2\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    const parsed = parsePasswordHash(stored)!;
    expect([parsed.N, parsed.r, parsed.p, parsed.salt.length, parsed.hash.length]).toEqual([2048, 4, 2, 16, 32]);
    // Verification uses the stored parameters, not today's.
    expect(await verifyPassword("correct horse battery staple", stored)).toBe(true);
    expect(await verifyPassword("correct horse battery stapl", stored)).toBe(false);
  });

  it("uses the documented default parameters", async () => {
    expect(PASSWORD_PARAMS).toEqual({ N: 32768, r: 8, p: 1 });
    const stored = await hashPassword("a password of today");
    expect(stored.startsWith("scrypt$32768$8$1$")).toBe(true);
    expect(needsRehash(stored)).toBe(false);
    expect(await verifyPassword("a password of today", stored)).toBe(true);
  });

  it("salts every hash: one password, two different hashes, both valid", async () => {
    const [a, b] = [await hashPassword("same password here", CHEAP), await hashPassword("same password here", CHEAP)];
    expect(a).not.toBe(b);
    expect([await verifyPassword("same password here", a), await verifyPassword("same password here", b)]).toEqual([true, true]);
  });

  it("asks for a rehash of a hash made with other parameters", async () => {
    expect(needsRehash(await hashPassword("old parameters", CHEAP))).toBe(true);
  });

  it("treats Unicode forms of one password alike (NFC)", async () => {
    const stored = await hashPassword("caf\u00e9 au lait!", CHEAP);
    expect(await verifyPassword("cafe\u0301 au lait!", stored)).toBe(true);
  });

  it.each([
    ["another scheme", "bcrypt$10$abc$def"],
    ["N not a power of two", "scrypt$1000$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    ["N that would take gigabytes", "scrypt$4194304$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    ["r out of range", "scrypt$1024$64$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    ["a short salt", "scrypt$1024$8$1$AAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"],
    ["missing parts", "scrypt$1024$8$1$AAAAAAAAAAAAAAAAAAAAAA"],
  ])("refuses a malformed hash (%s): it matches no password", async (_why, stored) => {
    expect(parsePasswordHash(stored)).toBeNull();
    expect(await verifyPassword("anything at all", stored)).toBe(false);
    expect(needsRehash(stored)).toBe(true);
  });
});
