import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ARGS_HASH_HEX, argsHash, argsHashOfText, canonicalArgs } from "@/lib/contracts/args-hash";
import { nativeSha256, sha256Hex, sha256HexPortable } from "@/lib/contracts/sha256";
import { toolCallSpanRecordSchema } from "@/lib/contracts/records";

const nodeSha = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

describe("sha256Hex", () => {
  it("equals node:crypto on the FIPS vectors and on texts around the block boundaries, multi-byte included", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    for (const n of [1, 55, 56, 57, 63, 64, 65, 119, 120, 1000]) {
      const text = "x".repeat(n - 1) + "é";
      expect(sha256Hex(text)).toBe(nodeSha(text));
    }
    expect(sha256Hex("日本語 🚀 tool")).toBe(nodeSha("日本語 🚀 tool"));
  });
});

describe("native and portable SHA-256", () => {
  const texts = ["", "abc", "x".repeat(55) + "é", "x".repeat(64), "日本語 🚀 tool", "lone \ud800 surrogate", "\udfff", '{"date":"2027-03-14","passengers":2}'];

  it("uses node:crypto where the platform offers it and the portable code gives the same digests byte for byte", () => {
    const native = nativeSha256(process);
    expect(native).toBeTypeOf("function");
    for (const text of texts) {
      expect(sha256HexPortable(text)).toBe(nodeSha(text));
      expect(native!(text)).toBe(nodeSha(text));
      expect(sha256Hex(text)).toBe(nodeSha(text));
    }
  });

  it("falls back to the portable code where there is no process, no getBuiltinModule, or no node:crypto", () => {
    expect(nativeSha256(undefined)).toBeUndefined();
    expect(nativeSha256({})).toBeUndefined();
    expect(nativeSha256({ getBuiltinModule: () => undefined })).toBeUndefined();
    expect(nativeSha256({ getBuiltinModule: () => { throw new Error("denied"); } })).toBeUndefined();
  });
});

describe("canonical arguments", () => {
  it("sorts object keys at every depth and drops insignificant whitespace", () => {
    expect(canonicalArgs({ b: 1, a: { d: [1, 2], c: "x" } })).toBe('{"a":{"c":"x","d":[1,2]},"b":1}');
    expect(argsHash({ b: 1, a: { d: [1, 2], c: "x" } })).toBe(argsHash({ a: { c: "x", d: [1, 2] }, b: 1 }));
  });

  it("normalises numbers (-0 is 0, 1.0 is 1, a bigint is its number) but keeps array order significant", () => {
    expect(canonicalArgs({ n: -0, m: 1.0, big: 12n, f: 0.1 })).toBe('{"big":12,"f":0.1,"m":1,"n":0}');
    expect(argsHash([1, 2])).not.toBe(argsHash([2, 1]));
    expect(argsHash({ n: 1 })).not.toBe(argsHash({ n: "1" }));
  });

  it("leaves out absent fields, like JSON, and reads Dates, Maps and Sets by value", () => {
    expect(canonicalArgs({ a: undefined, b: null, f: () => 1 })).toBe('{"b":null}');
    expect(canonicalArgs(new Date(Date.UTC(2027, 2, 14)))).toBe('"2027-03-14T00:00:00.000Z"');
    expect(canonicalArgs(new Map([["z", 1], ["a", 2]]))).toBe('{"a":2,"z":1}');
    expect(canonicalArgs(new Set(["q"]))).toBe('["q"]');
    expect(canonicalArgs(undefined)).toBe("null");
  });

  it("never throws: cycles, deep nesting and throwing getters become placeholders", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(canonicalArgs(cyclic)).toBe('{"a":1,"self":"[cycle]"}');
    let deep: unknown = 0;
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(canonicalArgs(deep)).toContain('"[deep]"');
    const hostile = Object.defineProperty({}, "x", { enumerable: true, get: () => { throw new Error("no"); } });
    expect(canonicalArgs(hostile)).toBe('"[unreadable]"');
  });

  it("is the first 16 hex characters of the SHA-256 of the canonical text, and valid on the wire", () => {
    const h = argsHash({ passengers: 2, date: "2027-03-14" });
    expect(h).toBe(nodeSha('{"date":"2027-03-14","passengers":2}').slice(0, ARGS_HASH_HEX));
    const span = { type: "tool_call_span", id: "s", run_id: "r", call_id: "c", tool: "t", attempt: 1, started_at: Date.now(), ended_at: Date.now(), outcome: "ok" };
    expect(toolCallSpanRecordSchema.safeParse({ ...span, args_hash: h }).success).toBe(true);
    expect(toolCallSpanRecordSchema.safeParse({ ...span, args_hash: "NOT-HEX" }).success).toBe(false);
  });

  it("hashes arguments sent as JSON text as the runtime hashes the same value, whatever the formatting", () => {
    expect(argsHashOfText('{ "passengers" : 2,\n  "date":"2027-03-14" }')).toBe(argsHash({ date: "2027-03-14", passengers: 2 }));
    expect(argsHashOfText("  not   json\ttext ")).toBe(argsHash("not json text"));
  });
});
