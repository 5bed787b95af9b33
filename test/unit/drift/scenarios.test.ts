import { afterEach, describe, expect, it } from "vitest";
import { refreshDrift } from "@/db/drift/refresh-drift";
import { emptyRowBatch } from "@/lib/ingest/rows";
import { DIALECTS } from "../../helpers/stores";
import { brief, Scenario, T0 } from "./scenario";

const search = (v: string, day: number) => ({ tool: "search", toolVersion: v, day });

describe.each(DIALECTS)("drift scenarios with known answers (%s)", (dialect) => {
  let opened: Scenario[] = [];
  const scenario = async () => {
    const s = await Scenario.open(dialect);
    opened.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(opened.map((s) => s.store.close()));
    opened = [];
  });

  it("1. retryable → permanent in a minor release is a critical repurposing", async () => {
    const s = await scenario();
    s.failing(40, { ...search("1.3.0", 0), code: "upstream_timeout", retryable: true, decision: "retried" }).ok(60, search("1.3.0", 0));
    s.failing(38, { ...search("1.4.0", 5), code: "upstream_timeout", retryable: false, decision: "surfaced" }).ok(60, search("1.4.0", 5));
    const findings = await s.findings();
    expect(findings.map(brief)).toEqual([
      { kind: "repurposed", metric: null, code: "upstream_timeout", renamedTo: null, tool: "search", from: "1.3.0", to: "1.4.0", bump: "minor", verdict: "violation", severity: "critical", changes: ["retryable", "decision"], beforeCalls: 40, afterCalls: 38 },
    ]);
    expect(findings[0]!.sentence).toBe(
      "`upstream_timeout` on `search` was retryable, decision retried in 1.3.0 (40 calls) and is permanent, decision surfaced in 1.4.0 (38 calls): a repurposed code in a minor release, a SemVer violation; clients that retry `upstream_timeout` will now fail closed: treat it as permanent from 1.4.0 and surface it instead of retrying.",
    );
    expect(findings[0]!.before!.retryable.entries).toEqual([{ value: "retryable", count: 40, share: 1 }]);
    expect(findings[0]!.after!.retryable.entries).toEqual([{ value: "permanent", count: 38, share: 1 }]);
    expect(findings[0]!.exampleRuns).toEqual({ before: ["run-1", "run-2", "run-3"], after: ["run-101", "run-102", "run-103"] });
  });

  it("2. failed → declined in a major release is allowed, medium", async () => {
    const s = await scenario();
    const v1 = { tool: "cancel_booking", toolVersion: "1.9.2", day: 0 };
    const v2 = { tool: "cancel_booking", toolVersion: "2.0.0", day: 3 };
    s.failing(30, { ...v1, code: "booking_not_cancellable", errorClass: "ToolFailure", outcome: "failed", retryable: false, decision: "surfaced" }).ok(30, v1);
    s.failing(30, { ...v2, code: "booking_not_cancellable", errorClass: "ToolRefusal", outcome: "declined", retryable: false, decision: "delivered" }).ok(30, v2);
    const findings = await s.findings();
    expect(findings.map(brief)).toEqual([
      { kind: "repurposed", metric: null, code: "booking_not_cancellable", renamedTo: null, tool: "cancel_booking", from: "1.9.2", to: "2.0.0", bump: "major", verdict: "allowed", severity: "medium", changes: ["error_class", "outcome", "decision"], beforeCalls: 30, afterCalls: 30 },
    ]);
    expect(findings[0]!.sentence).toBe(
      "`booking_not_cancellable` on `cancel_booking` was class ToolFailure, outcome failed, decision surfaced in 1.9.2 (30 calls) and is class ToolRefusal, outcome declined, decision delivered in 2.0.0 (30 calls): a repurposed code in a major release, which SemVer allows; clients that retry `booking_not_cancellable` as a failure will now repeat a refusal: deliver it to the model once from 2.0.0.",
    );
  });

  it("3. non-SemVer releases are ordered by first sighting and get no SemVer verdict", async () => {
    const s = await scenario();
    // "green" is seen first although it sorts after "blue".
    s.failing(20, { tool: "lookup", release: "green", code: "rate_limited", retryable: true, decision: "retried", day: 0 });
    s.failing(20, { tool: "lookup", release: "blue", code: "rate_limited", retryable: false, decision: "retried", day: 2 });
    const findings = await s.findings();
    expect(findings.map(brief)).toEqual([
      { kind: "repurposed", metric: null, code: "rate_limited", renamedTo: null, tool: "lookup", from: "green", to: "blue", bump: "not_semver", verdict: "not_semver", severity: "high", changes: ["retryable"], beforeCalls: 20, afterCalls: 20 },
    ]);
    expect(findings[0]!.sentence).toBe(
      "`rate_limited` on `lookup` was retryable in green (20 calls) and is permanent in blue (20 calls): a repurposed code between releases that are not semantic versions; clients that retry `rate_limited` will now fail closed: treat it as permanent from blue and surface it instead of retrying.",
    );
    expect(findings[0]!.before!.releaseKind).toBe("release");
  });

  it("4. a code removed in a patch release is a violation; in a major it is allowed", async () => {
    const s = await scenario();
    s.failing(30, { ...search("1.3.0", 0), code: "index_stale" }).ok(70, search("1.3.0", 0));
    s.ok(100, search("1.3.1", 2));
    // A different meaning (permanent), so not a rename of index_stale.
    s.failing(30, { ...search("1.3.1", 2), code: "shard_missing", retryable: false });
    s.ok(100, search("2.0.0", 4));
    const findings = await s.findings();
    expect(findings.map(brief)).toEqual([
      { kind: "removed", metric: null, code: "index_stale", renamedTo: null, tool: "search", from: "1.3.0", to: "1.3.1", bump: "patch", verdict: "violation", severity: "high", changes: ["code"], beforeCalls: 30, afterCalls: 0 },
      // shard_missing arrived in the patch release: an addition that belongs in a minor.
      { kind: "added", metric: null, code: "shard_missing", renamedTo: null, tool: "search", from: "1.3.0", to: "1.3.1", bump: "patch", verdict: "violation", severity: "low", changes: ["code"], beforeCalls: 0, afterCalls: 30 },
      { kind: "removed", metric: null, code: "shard_missing", renamedTo: null, tool: "search", from: "1.3.1", to: "2.0.0", bump: "major", verdict: "allowed", severity: "low", changes: ["code"], beforeCalls: 30, afterCalls: 0 },
    ]);
    expect(findings[0]!.sentence).toBe(
      "`index_stale` on `search` was seen in 1.3.0 (30 calls) and on none of the 130 calls of `search` in 1.3.1: a code removed in a patch release, a SemVer violation; clients that branch on `index_stale` will not see it from 1.3.1: find in the linked runs what replaced it before relying on that rule.",
    );
    expect(findings[0]!.after).toBeNull();
    expect(findings[0]!.exampleRuns.after).toEqual(["run-101", "run-102", "run-103"]);
  });

  it("5. a code added in a minor release is allowed (info); before 1.0 a minor may remove", async () => {
    const s = await scenario();
    s.ok(50, search("1.1.0", 0));
    s.ok(50, search("1.2.0", 1)).failing(15, { ...search("1.2.0", 1), code: "query_too_long", retryable: false });
    s.failing(20, { tool: "geo", toolVersion: "0.3.0", code: "geo_unavailable", day: 0 }).ok(20, { tool: "geo", toolVersion: "0.3.0", day: 0 });
    s.ok(40, { tool: "geo", toolVersion: "0.4.0", day: 1 });
    const findings = await s.findings();
    expect(findings.map(brief)).toEqual([
      { kind: "removed", metric: null, code: "geo_unavailable", renamedTo: null, tool: "geo", from: "0.3.0", to: "0.4.0", bump: "pre1_minor", verdict: "allowed", severity: "low", changes: ["code"], beforeCalls: 20, afterCalls: 0 },
      { kind: "added", metric: null, code: "query_too_long", renamedTo: null, tool: "search", from: "1.1.0", to: "1.2.0", bump: "minor", verdict: "allowed", severity: "info", changes: ["code"], beforeCalls: 0, afterCalls: 15 },
    ]);
    expect(findings.map((f) => f.sentence)).toEqual([
      "`geo_unavailable` on `geo` was seen in 0.3.0 (20 calls) and on none of the 40 calls of `geo` in 0.4.0: a code removed in a 0.x minor release, which SemVer allows; clients that branch on `geo_unavailable` will not see it from 0.4.0: find in the linked runs what replaced it before relying on that rule.",
      "`query_too_long` on `search` appears in 1.2.0 (15 calls) and was absent from the 50 calls of `search` in 1.1.0: a code added in a minor release, which SemVer allows; clients have no rule for `query_too_long` yet: decide whether to retry or surface it before upgrading to 1.2.0.",
    ]);
  });

  it("6. a code replaced by a new one with the same signature on the same tool is a rename", async () => {
    const s = await scenario();
    const refusal = { tool: "cancel_booking", errorClass: "ToolRefusal", outcome: "declined", retryable: false, decision: "delivered" };
    s.failing(25, { ...refusal, toolVersion: "1.2.0", code: "booking_locked", told: "booking_locked: booking bk_123 is locked until 2026-11-03", day: 0 }).ok(50, { tool: "cancel_booking", toolVersion: "1.2.0" });
    // A different meaning also appears: it is an addition, not the rename partner.
    s.failing(25, { ...refusal, toolVersion: "1.3.0", code: "booking_frozen", told: "booking_frozen: booking bk_987 is locked until 2026-12-01", day: 2 });
    s.failing(12, { tool: "cancel_booking", toolVersion: "1.3.0", code: "payment_gateway_down", retryable: true, day: 2 }).ok(50, { tool: "cancel_booking", toolVersion: "1.3.0", day: 2 });
    const findings = await s.findings();
    expect(findings.map(brief)).toEqual([
      { kind: "renamed", metric: null, code: "booking_locked", renamedTo: "booking_frozen", tool: "cancel_booking", from: "1.2.0", to: "1.3.0", bump: "minor", verdict: "violation", severity: "high", changes: ["code"], beforeCalls: 25, afterCalls: 25 },
      { kind: "added", metric: null, code: "payment_gateway_down", renamedTo: null, tool: "cancel_booking", from: "1.2.0", to: "1.3.0", bump: "minor", verdict: "allowed", severity: "info", changes: ["code"], beforeCalls: 0, afterCalls: 12 },
    ]);
    expect(findings[0]!.sentence).toBe(
      "`booking_locked` on `cancel_booking` in 1.2.0 (25 calls) is gone and `booking_frozen` in 1.3.0 (25 calls) took over with the same class, retryability, outcome and decision: a renamed code in a minor release, a SemVer violation; clients that match `booking_locked` must match `booking_frozen` from 1.3.0: add the new code to every rule that names the old one.",
    );
    expect(findings[0]!.before!.toldShapes).toEqual([{ shape: "<code>: booking <id> is locked until <time>", count: 25 }]);
    expect(findings[0]!.after!.toldShapes).toEqual([{ shape: "<code>: booking <id> is locked until <time>", count: 25 }]);
  });

  it("7. a transient code that recovers in one release and never in the next is high behaviour drift", async () => {
    const s = await scenario();
    s.failing(30, { ...search("1.3.0", 0), code: "upstream_unavailable", retryable: true, recovers: true, decision: "retried" });
    s.failing(30, { ...search("1.4.0", 3), code: "upstream_unavailable", retryable: true, recovers: false, decision: "retried" });
    const findings = await s.findings();
    expect(findings.map(brief)).toEqual([
      { kind: "behaviour", metric: "recovery", code: "upstream_unavailable", renamedTo: null, tool: "search", from: "1.3.0", to: "1.4.0", bump: "minor", verdict: "violation", severity: "high", changes: ["recovery"], beforeCalls: 30, afterCalls: 30 },
    ]);
    expect(findings[0]!.sentence).toBe(
      "`upstream_unavailable` on `search` recovered on a later attempt in 100% of calls in 1.3.0 (30 calls) and in 0% in 1.4.0 (30 calls) while still claiming to be retryable: behaviour drift in a minor release, a SemVer violation; retrying `upstream_unavailable` no longer helps: cap its retries or surface it at once from 1.4.0.",
    );
    expect(findings[0]!.before!.recovery).toEqual({ calls: 30, recovered: 30, rate: 1 });
    expect(findings[0]!.after!.recovery).toEqual({ calls: 30, recovered: 0, rate: 0 });
  });

  it("8. retry_after that grows 15× is behaviour drift; jitter around the same median is not", async () => {
    const s = await scenario();
    for (let i = 0; i < 20; i++) s.failing(1, { ...search("2.0.0", 0), code: "rate_limited", retryAfterMs: 1900 + i * 10 });
    for (let i = 0; i < 20; i++) s.failing(1, { ...search("2.1.0", 2), code: "rate_limited", retryAfterMs: 30_000 });
    for (let i = 0; i < 20; i++) s.failing(1, { ...search("2.1.1", 4), code: "rate_limited", retryAfterMs: 29_000 + i * 100 });
    const findings = await s.findings();
    expect(findings.map(brief)).toEqual([
      { kind: "behaviour", metric: "retry_after", code: "rate_limited", renamedTo: null, tool: "search", from: "2.0.0", to: "2.1.0", bump: "minor", verdict: "violation", severity: "medium", changes: ["retry_after"], beforeCalls: 20, afterCalls: 20 },
    ]);
    expect(findings[0]!.sentence).toBe(
      "`rate_limited` on `search` asked for a median retry_after of 2 s (p90 2.1 s) in 2.0.0 (20 calls) and a median retry_after of 30 s (p90 30 s) in 2.1.0 (20 calls): behaviour drift in a minor release, a SemVer violation; clients that honour retry_after on `rate_limited` will now wait longer: check their deadlines leave 30 s from 2.1.0.",
    );
  });

  it("9. noise: small samples never produce a finding", async () => {
    const s = await scenario();
    // The class flips, but on 6 calls per side.
    s.failing(6, { ...search("1.0.0", 0), code: "flaky", errorClass: "ToolFailure" }).ok(100, search("1.0.0", 0));
    s.failing(6, { ...search("1.1.0", 1), code: "flaky", errorClass: "ToolTimedOutError", outcome: "timed_out" }).ok(100, search("1.1.0", 1));
    // 12 of 1000 calls: at that rate 1.2.0's 30 calls should show 0.36 — its absence proves nothing.
    s.failing(12, { ...search("1.1.0", 1), code: "rare" }).ok(900, search("1.1.0", 1));
    s.ok(30, search("1.2.0", 2));
    // Recovery 8/12 → 4/12: a 33-point move but z ≈ 1.6.
    s.failing(8, { ...search("1.3.0", 3), code: "sometimes", recovers: true }).failing(4, { ...search("1.3.0", 3), code: "sometimes" });
    s.failing(4, { ...search("1.4.0", 4), code: "sometimes", recovers: true }).failing(8, { ...search("1.4.0", 4), code: "sometimes" });
    expect((await s.findings()).map(brief)).toEqual([]);
  });

  it("10. noise: identical distributions at very different volumes produce no finding", async () => {
    const s = await scenario();
    s.failing(16, { ...search("3.0.0", 0), code: "upstream_timeout", recovers: true, retryAfterMs: 1000 });
    s.failing(4, { ...search("3.0.0", 0), code: "upstream_timeout", retryable: false, retryAfterMs: 4000 });
    s.ok(80, search("3.0.0", 0));
    s.failing(160, { ...search("3.1.0", 1), code: "upstream_timeout", recovers: true, retryAfterMs: 1000 });
    s.failing(40, { ...search("3.1.0", 1), code: "upstream_timeout", retryable: false, retryAfterMs: 4000 });
    s.ok(800, search("3.1.0", 1));
    expect((await s.findings()).map(brief)).toEqual([]);
  });

  it("11. noise: a release with a single call is skipped, and the releases around it still compared", async () => {
    const s = await scenario();
    s.failing(40, { ...search("1.3.0", 0), code: "upstream_timeout", retryable: true }).ok(40, search("1.3.0", 0));
    s.failing(1, { ...search("1.3.1", 1), code: "upstream_timeout", retryable: false, errorClass: "ToolRefusal", outcome: "declined" });
    s.failing(40, { ...search("1.3.2", 2), code: "upstream_timeout", retryable: true }).ok(40, search("1.3.2", 2));
    expect((await s.findings()).map(brief)).toEqual([]);
    s.failing(40, { ...search("1.4.0", 3), code: "upstream_timeout", retryable: false }).ok(40, search("1.4.0", 3));
    expect((await s.findings()).map((f) => [f.kind, f.code, f.fromRelease, f.toRelease])).toEqual([["repurposed", "upstream_timeout", "1.3.2", "1.4.0"]]);
  });

  it("12. a code shared by two tools drifts on only one of them", async () => {
    const s = await scenario();
    for (const tool of ["search", "lookup"]) {
      s.failing(25, { tool, release: "2026.4.0", code: "upstream_timeout", retryable: true, day: 0 }).ok(25, { tool, release: "2026.4.0", day: 0 });
    }
    s.failing(25, { tool: "search", release: "2026.5.0", code: "upstream_timeout", retryable: false, day: 30 }).ok(25, { tool: "search", release: "2026.5.0", day: 30 });
    s.failing(25, { tool: "lookup", release: "2026.5.0", code: "upstream_timeout", retryable: true, day: 30 }).ok(25, { tool: "lookup", release: "2026.5.0", day: 30 });
    const findings = await s.findings();
    // Calendar versions order numerically but make no SemVer promise.
    expect(findings.map(brief)).toEqual([
      { kind: "repurposed", metric: null, code: "upstream_timeout", renamedTo: null, tool: "search", from: "2026.4.0", to: "2026.5.0", bump: "not_semver", verdict: "not_semver", severity: "high", changes: ["retryable"], beforeCalls: 25, afterCalls: 25 },
    ]);
  });

  it("13. pre-releases: 1.4.0-rc.1 sorts before 1.4.0 and a change between them is allowed", async () => {
    const s = await scenario();
    s.failing(20, { ...search("1.4.0", 0), code: "quota_exceeded", retryable: false });
    s.failing(20, { ...search("1.4.0-rc.1", 1), code: "quota_exceeded", retryable: true });
    expect((await s.findings()).map(brief)).toEqual([
      { kind: "repurposed", metric: null, code: "quota_exceeded", renamedTo: null, tool: "search", from: "1.4.0-rc.1", to: "1.4.0", bump: "prerelease", verdict: "allowed", severity: "medium", changes: ["retryable"], beforeCalls: 20, afterCalls: 20 },
    ]);
  });

  it("14. release falls back to sdk_version, then to the ISO week", async () => {
    const s = await scenario();
    s.failing(20, { tool: "fetch", sdkVersion: "0.1.0", code: "dns_failure", retryable: true });
    s.failing(20, { tool: "fetch", sdkVersion: "0.1.1", code: "dns_failure", retryable: false, day: 1 });
    s.failing(20, { tool: "mail", code: "smtp_down", retryable: true, day: 0 });
    s.failing(20, { tool: "mail", code: "smtp_down", retryable: false, day: 7 });
    const findings = await s.findings();
    expect(findings.map((f) => [f.kind, f.tool, f.fromRelease, f.toRelease, f.bump, f.verdict, f.severity, f.after!.releaseKind])).toEqual([
      ["repurposed", "fetch", "0.1.0", "0.1.1", "patch", "violation", "critical", "sdk_version"],
      ["repurposed", "mail", "2026-W45", "2026-W46", "not_semver", "not_semver", "high", "week"],
    ]);
  });
  const sigRows = (s: Scenario) =>
    s.store.all("SELECT code, tool, release, release_kind, spans, errors, calls, recovered FROM drift_signatures WHERE spans > 0 OR errors > 0 ORDER BY code, release");

  it("15. a final error that names only the service release is counted under its call's tool version", async () => {
    const s = await scenario();
    // The runtime stamps the service release on its error records, the tool's version on its spans.
    const stale = (v: string, day: number) => ({ ...search(v, day), release: "agent-7", errorToolVersion: null, code: "index_stale", retryable: false });
    s.failing(30, stale("1.3.0", 0)).ok(30, { ...search("1.3.0", 0), release: "agent-7" });
    s.failing(30, stale("1.4.0", 1)).ok(30, { ...search("1.4.0", 1), release: "agent-7" });
    expect((await s.findings()).map(brief)).toEqual([]);
    expect(await sigRows(s)).toEqual([
      { code: "index_stale", tool: "search", release: "1.3.0", release_kind: "tool_version", spans: 30, errors: 30, calls: 30, recovered: 0 },
      { code: "index_stale", tool: "search", release: "1.4.0", release_kind: "tool_version", spans: 30, errors: 30, calls: 30, recovered: 0 },
    ]);
    expect(await s.store.all("SELECT release, first_attempts, spans, errors FROM drift_tool_releases ORDER BY release")).toEqual([
      { release: "1.3.0", first_attempts: 60, spans: 60, errors: 30 },
      { release: "1.4.0", first_attempts: 60, spans: 60, errors: 30 },
    ]);
  });

  it("16. a final error folded before its call's spans arrive moves to their tool version", async () => {
    const s = await scenario();
    const spec = { tool: "search", toolVersion: "1.3.0" };
    const errors = emptyRowBatch();
    const spans = emptyRowBatch();
    for (let i = 1; i <= 25; i++) {
      const at = T0 + i * 1000;
      errors.toolErrors.push({
        index: i - 1,
        row: {
          eventId: `late-err-${i}`, runId: `late-${i}`, callId: `c-${i}`, tool: "search", toolVersion: null, release: "agent-7", service: "agent",
          environment: null, code: "index_stale", errorClass: "ToolFailure", retryable: false, attempts: 1, decision: "surfaced",
          told: "index_stale: shard 4 is stale", derived: null, occurredAt: at + 200, source: "native", experiment: null, variant: null,
        },
      });
      spans.spans.push({
        index: i - 1,
        row: s.span(`late-${i}`, `c-${i}`, 1, at, spec, { outcome: "failed", code: "index_stale", errorClass: "ToolFailure", retryable: false, decision: "surfaced" }),
      });
    }
    await s.write(errors);
    await refreshDrift(s.store, "default", T0);
    expect(await sigRows(s)).toEqual([
      { code: "index_stale", tool: "search", release: "agent-7", release_kind: "release", spans: 0, errors: 25, calls: 25, recovered: 0 },
    ]);
    await s.write(spans);
    s.failing(25, { ...search("1.4.0", 1), code: "index_stale", retryable: false, errorClass: "ToolFailure" });
    expect((await s.findings()).map(brief)).toEqual([]);
    expect(await sigRows(s)).toEqual([
      { code: "index_stale", tool: "search", release: "1.3.0", release_kind: "tool_version", spans: 25, errors: 25, calls: 25, recovered: 0 },
      { code: "index_stale", tool: "search", release: "1.4.0", release_kind: "tool_version", spans: 25, errors: 25, calls: 25, recovered: 0 },
    ]);
    expect(await s.store.all("SELECT release, spans, errors FROM drift_tool_releases WHERE spans > 0 OR errors > 0 ORDER BY release")).toEqual([
      { release: "1.3.0", spans: 25, errors: 25 },
      { release: "1.4.0", spans: 25, errors: 25 },
    ]);
  });

  it("17. releases seen only through final errors are counted, and said to be, in final errors", async () => {
    const s = await scenario();
    s.errorsOnly(20, { tool: "quote", release: "5.0.0", code: "quota_exceeded", retryable: true, day: 0 });
    s.errorsOnly(20, { tool: "quote", release: "5.1.0", code: "quota_exceeded", retryable: false, day: 1 });
    const findings = await s.findings();
    expect(findings.map(brief)).toEqual([
      { kind: "repurposed", metric: null, code: "quota_exceeded", renamedTo: null, tool: "quote", from: "5.0.0", to: "5.1.0", bump: "minor", verdict: "violation", severity: "critical", changes: ["retryable"], beforeCalls: 20, afterCalls: 20 },
    ]);
    expect(findings[0]!.sentence).toBe(
      "`quota_exceeded` on `quote` was retryable in 5.0.0 (20 final errors) and is permanent in 5.1.0 (20 final errors): a repurposed code in a minor release, a SemVer violation; clients that retry `quota_exceeded` will now fail closed: treat it as permanent from 5.1.0 and surface it instead of retrying.",
    );
  });

  it("18. calls that now recover after a code are an improvement, not a violation, and the advice says retrying pays off", async () => {
    const s = await scenario();
    s.failing(30, { ...search("1.3.0", 0), code: "upstream_unavailable", retryable: true });
    s.failing(30, { ...search("1.4.0", 1), code: "upstream_unavailable", retryable: true, recovers: true });
    // The final decision moves too (surfaced → retried): a finding of its own, not asserted here.
    const findings = (await s.findings()).filter((f) => f.metric === "recovery");
    expect(findings.map(brief)).toEqual([
      { kind: "behaviour", metric: "recovery", code: "upstream_unavailable", renamedTo: null, tool: "search", from: "1.3.0", to: "1.4.0", bump: "minor", verdict: "improvement", severity: "info", changes: ["recovery"], beforeCalls: 30, afterCalls: 30 },
    ]);
    expect(findings[0]!.direction).toBe("better");
    expect(findings[0]!.sentence).toBe(
      "`upstream_unavailable` on `search` recovered on a later attempt in 0% of calls in 1.3.0 (30 calls) and in 100% in 1.4.0 (30 calls): behaviour drift for the better in a minor release, an improvement listed for information; `upstream_unavailable` now recovers when retried: a retry policy for it pays off from 1.4.0.",
    );
  });
});
