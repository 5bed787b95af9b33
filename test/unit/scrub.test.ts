import { describe, expect, it } from "vitest";
import { looksSensitive, luhnValid, SCRUB_MAX_INPUT, scrubText, TRUNCATED_MARK } from "../../lib/contracts/scrub";
import { ToolRunner, MemorySink, ToolFailure, VirtualTime, sequentialIds } from "../../lib/runtime";

const positives: [string, string][] = [
  ["Authorization: Bearer abc.DEF_123-xyz", "bearer"],
  ["bearer 0123456789abcdef", "bearer"],
  ["token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt"],
  ["upstream said sk-live-abcdefghijklmnop", "api_key"],
  ["key=sk-proj-Abc123Def456Ghi789Jkl", "api_key"],
  ["using sk-ant-api03-AAAAbbbbCCCCdddd1234", "api_key"],
  ["stripe pk_live_51HxYzAbCdEf", "api_key"],
  ["stripe sk_test_4eC39HqLyjWDarjtT1zdp7dc", "api_key"],
  ["gh ghp_0123456789abcdefghijABCDEFGHIJ012345 done", "api_key"],
  ["github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "api_key"],
  ["slack xoxb-1234567890-0987654321-AbCdEfGh", "api_key"],
  ["aws AKIAIOSFODNN7EXAMPLE", "api_key"],
  ["aws ASIAY34FZKBOKMUTVV7A", "api_key"],
  ["mail jane.doe+tag@example.com please", "email"],
  ["mail josé.müller@exämple.de now", "email"],
  ["mail 山田@例え.jp now", "email"],
  ["card 4111 1111 1111 1111 declined", "card"],
  ["card 4111-1111-1111-1111 declined", "card"],
  ["card 5500005555555559", "card"],
  ["amex 378282246310005", "card"],
  ["session 3f786850e387550fdab836ed7e6dc881de23001b", "hex"],
  ["secret 0123456789ABCDEF0123456789ABCDEF", "hex"],
  ["db postgres://admin:hunter2@db.local:5432/app", "url_password"],
  ["password=hunter2 rest", "secret_value"],
  ['{"api_key": "abcdef"}', "secret_value"],
  ["-----BEGIN RSA PRIVATE KEY-----\nMIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu\n-----END RSA PRIVATE KEY-----", "private_key"],
];

const negatives = [
  "upstream_unavailable: connection reset",
  "booking_not_cancellable: this fare is non-refundable",
  "constraint pk_bookings_id violated",
  "see run 550e8400-e29b-41d4-a716-446655440000",
  "at 1767225600000 (epoch ms)",
  "at 2026-01-15T12:00:00.000Z",
  "order 1234567812345670 (starts with 1: not a card network)",
  "order 4111111111111112 fails Luhn",
  "short sha 3f78685 in the log",
  "trace 4bf92f3577b34da6 span",
  "risk_score 0.93 over 15 attempts",
  "sk-short",
  "xoxb-",
  "user@localhost",
  "12345678-1234-1234-1234-123456789012",
  "ticket ABC-1234 reopened",
  "v1.4.0 released",
];

describe("scrubText", () => {
  it.each(positives)("redacts %s", (text, kind) => {
    const out = scrubText(text);
    expect(out).toContain(`[redacted:${kind}]`);
    expect(looksSensitive(text)).toBe(true);
  });

  it.each(negatives)("leaves %s alone", (text) => {
    expect(scrubText(text)).toBe(text);
    expect(looksSensitive(text)).toBe(false);
  });

  it("keeps the surrounding text and is idempotent", () => {
    const text = "call failed for ada@example.com with Bearer abc123; retry later";
    const once = scrubText(text);
    expect(once).toBe("call failed for [redacted:email] with Bearer [redacted:bearer]; retry later");
    expect(scrubText(once)).toBe(once);
  });

  it("keeps the URL user but not the password", () => {
    expect(scrubText("https://bob:s3cr3t@api.example.com/x")).toBe("https://bob:[redacted:url_password]@api.example.com/x");
  });

  it("checks Luhn and the card network digit", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
    // An epoch-ms timestamp that happens to pass Luhn still starts with 1.
    const ts = "1767225600009";
    expect(luhnValid(ts)).toBe(true);
    expect(scrubText(`at ${ts}`)).toBe(`at ${ts}`);
  });

  it("caps the input it scans and marks the cut", () => {
    const long = "x".repeat(SCRUB_MAX_INPUT + 10);
    const out = scrubText(long);
    expect(out.endsWith(TRUNCATED_MARK)).toBe(true);
    expect(out.length).toBe(SCRUB_MAX_INPUT + TRUNCATED_MARK.length);
  });

  it("stays fast on pathological input (1 MiB, bounded quantifiers)", () => {
    // Checked by the work done, not by a stopwatch: every pattern runs on at most SCRUB_MAX_INPUT
    // characters, and no pattern has an unbounded quantifier (*, +, {n,}) that could backtrack.
    const inputs = ["a".repeat(1 << 20), "a.".repeat(1 << 19) + "@", "4 ".repeat(1 << 19), "-----BEGIN RSA PRIVATE KEY-----aaaa".repeat(30000), "eyJ".repeat(350000)];
    const scans: { re: RegExp; length: number }[] = [];
    const replace = String.prototype.replace;
    String.prototype.replace = function (this: string, pattern: string | RegExp, replacement: never) {
      if (pattern instanceof RegExp) scans.push({ re: pattern, length: this.length });
      return replace.call(this, pattern as RegExp, replacement);
    } as typeof replace;
    let outputs: string[];
    try {
      outputs = inputs.map((input) => scrubText(input));
    } finally {
      String.prototype.replace = replace;
    }
    expect(outputs.map((out) => out.endsWith(TRUNCATED_MARK))).toEqual(inputs.map(() => true));
    expect(scans.length).toBeGreaterThan(0);
    expect(Math.max(...scans.map((s) => s.length))).toBe(SCRUB_MAX_INPUT);
    const unbounded = (re: RegExp) =>
      re.source
        .replace(/\\[pPu]\{[^}]*\}/g, "") // \p{L}, \u{…}: braces that are not quantifiers
        .replace(/\\./g, "") // escaped characters
        .replace(/\[[^\]]*\]/g, "") // character classes
        .match(/[*+]|\{\d+,\}/g) ?? [];
    expect([...new Set(scans.map((s) => s.re))].filter((re) => unbounded(re).length > 0).map((re) => re.source)).toEqual([]);
  });

  it("is applied to messages but never to id fields", async () => {
    const time = new VirtualTime(Date.UTC(2026, 0, 1));
    const sink = new MemorySink();
    const hexId = "3f786850e387550fdab836ed7e6dc881";
    const runner = new ToolRunner({
      agent: "a",
      sink,
      clock: time,
      scheduler: time,
      ids: sequentialIds(),
      tools: [{ name: "t", execute: () => { throw new ToolFailure("t", "upstream_rejected", { message: `key ${hexId} for ops@example.com` }); } }],
    });
    const run = runner.startRun({ runId: hexId });
    const result = await run.call({ callId: hexId, tool: "t" });
    run.end();
    expect(result.status).toBe("error");
    const error = sink.ofType("tool_error")[0]!;
    expect(error.run_id).toBe(hexId);
    expect(error.call_id).toBe(hexId);
    expect(error.told).toBe("error: upstream_rejected: key [redacted:hex] for [redacted:email]\nretryable: no (repeating the same call will not help)");
    expect(sink.ofType("tool_call_span")[0]!.message).toBe("key [redacted:hex] for [redacted:email]");
  });
});
