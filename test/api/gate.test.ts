// The release gate and the code contract on a real server: drift scenarios ingested through the
// real ingest endpoint, answers read once the background fold has caught up.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "@/db/keys";
import { codeContractSchema, gateResponseSchema, type CodeContract, type GateResponse } from "@/lib/contracts/gate";
import { openProject, type ProjectServer } from "../helpers/project";
import { ingestGateScenario, ingestImprovementAndCalVer, REPURPOSED_MINOR, REPURPOSED_PATCH } from "./gate-fixture";

let server: ProjectServer;
let readKey: string;
beforeAll(async () => {
  server = await openProject();
  readKey = (await createKey(server.store, server.project, "gate key", "read")).key;
  await ingestGateScenario(server.url, server.key);
  await ingestImprovementAndCalVer(server.url, server.key);
  await server.driftFolded();
});
afterAll(async () => {
  await server?.stop();
});

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

async function gate(qs: string, key = readKey): Promise<GateResponse> {
  const res = await fetch(server.at(`/api/v1/gate?${qs}`), { headers: auth(key) });
  expect(res.status).toBe(200);
  return gateResponseSchema.parse(await res.json());
}

describe("GET /api/v1/gate", () => {
  it("fails a patch release that repurposed a code, with the drift finding and its sentence", async () => {
    const a = await gate("release=1.0.1");
    expect([a.verdict, a.reason, a.message, a.against, a.upToDate]).toEqual(["fail", null, "1 SemVer violation in release 1.0.1", { kind: "predecessor", release: null }, true]);
    expect(a.comparisons).toEqual([{ tool: "lookup", from: "1.0.0", to: "1.0.1", fromCalls: 20, toCalls: 20 }]);
    expect(a.violations.map((f) => [f.kind, f.code, f.bump, f.severity, f.sentence])).toEqual([["repurposed", "upstream_timeout", "patch", "critical", REPURPOSED_PATCH]]);
    expect([a.otherFindings, a.improvements, a.unjudged, a.newCodes, a.removedCodes, a.unchecked]).toEqual([[], [], [], [], [], []]);
    // The same finding, id and all, as the drift page shows.
    const drift = (await (await fetch(server.at("/api/v1/drift?kind=repurposed"))).json()) as { findings: { id: string; toRelease: string }[] };
    expect(drift.findings.find((f) => f.toRelease === "1.0.1")?.id).toBe(a.violations[0]!.id);
  });

  it("passes a clean minor release, listing its new code as information", async () => {
    const a = await gate("release=1.1.0");
    expect([a.verdict, a.reason, a.message]).toEqual(["pass", null, "no SemVer violation in release 1.1.0"]);
    expect(a.comparisons).toEqual([{ tool: "lookup", from: "1.0.1", to: "1.1.0", fromCalls: 20, toCalls: 30 }]);
    expect(a.violations).toEqual([]);
    expect(a.otherFindings.map((f) => [f.kind, f.code, f.verdict])).toEqual([["added", "quota_exceeded", "allowed"]]);
    expect(a.newCodes).toEqual([{ tool: "lookup", code: "quota_exceeded", calls: 10 }]);
    expect(a.removedCodes).toEqual([]);
  });

  it("compares with a named release when asked", async () => {
    const a = await gate("release=1.1.0&against=1.0.0");
    expect([a.verdict, a.against]).toEqual(["fail", { kind: "release", release: "1.0.0" }]);
    expect(a.violations.map((f) => f.sentence)).toEqual([REPURPOSED_MINOR]);
  });

  it("is undecided on an unknown release, a first release and too few calls, saying why", async () => {
    const pick = (a: GateResponse) => [a.verdict, a.reason, a.message, a.violations.length];
    expect(pick(await gate("release=9.9.9"))).toEqual(["undecided", "unknown_release", `no tool call of ${server.project} was recorded in release 9.9.9`, 0]);
    expect(pick(await gate("release=1.1.0&against=0.9.0"))).toEqual(["undecided", "unknown_release", `no tool call of ${server.project} was recorded in release 0.9.0`, 0]);
    expect(pick(await gate("release=1.0.0"))).toEqual(["undecided", "no_predecessor", "no tool of release 1.0.0 has an earlier release to compare with", 0]);
    expect(pick(await gate("release=1.1.1"))).toEqual([
      "undecided",
      "too_few_calls",
      "too few calls to judge (at least 20 per tool and release are needed): lookup: 30 calls in 1.1.0, 5 calls in 1.1.1",
      0,
    ]);
  });

  it("passes a minor release whose calls now recover, listing the improvement as the Drift page does", async () => {
    const a = await gate("release=2.1.0");
    expect([a.verdict, a.reason, a.message]).toEqual(["pass", null, "no SemVer violation in release 2.1.0 (1 improvement listed)"]);
    expect(a.comparisons).toEqual([{ tool: "search", from: "2.0.0", to: "2.1.0", fromCalls: 25, toCalls: 25 }]);
    expect(a.improvements.map((f) => [f.kind, f.metric, f.direction, f.verdict, f.severity])).toEqual([["behaviour", "recovery", "better", "improvement", "info"]]);
    const drift = (await (await fetch(server.at("/api/v1/drift?tool=search"))).json()) as { findings: { id: string; verdict: string }[] };
    expect(drift.findings.map((f) => [f.id, f.verdict])).toEqual([[a.improvements[0]!.id, "improvement"]]);
  });

  it("leaves a date-released change for the worse to a person: undecided, never pass", async () => {
    const a = await gate("release=2026-11-09");
    expect([a.verdict, a.reason, a.message]).toEqual([
      "undecided",
      "not_semver",
      "1 finding to review in release 2026-11-09 (the most severe high): its releases are not semantic versions, so SemVer cannot judge them",
    ]);
    expect(a.otherFindings.map((f) => [f.kind, f.code, f.verdict])).toEqual([["repurposed", "slot_taken", "not_semver"]]);
  });

  it("refuses a base that is not an earlier release", async () => {
    const res = await fetch(server.at("/api/v1/gate?release=1.0.1&against=1.1.0"), { headers: auth(readKey) });
    expect([res.status, await res.json()]).toEqual([400, { error: { code: "bad_request", message: "against must be an earlier release than 1.0.1; got 1.1.0" } }]);
  });

  it("refuses a query without a release in the error envelope", async () => {
    const res = await fetch(server.at("/api/v1/gate"), { headers: auth(readKey) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("bad_request");
  });
});

describe("the code contract", () => {
  async function contract(release: string): Promise<CodeContract> {
    const res = await fetch(server.at(`/api/v1/codes/contract?release=${release}`), { headers: auth(readKey) });
    expect(res.status).toBe(200);
    return codeContractSchema.parse(await res.json());
  }

  it("exports a release's catalogue per tool", async () => {
    const doc = await contract("1.1.0");
    expect([doc.version, doc.project, doc.release]).toEqual([1, server.project, "1.1.0"]);
    const mix = (value: string, count: number) => ({ basis: "attempts", total: count, entries: [{ value, count, share: 1 }] });
    expect(doc.tools).toEqual([
      {
        tool: "lookup",
        calls: 30,
        codes: [
          {
            code: "quota_exceeded", calls: 10, class: "ToolFailure", retryable: true, outcome: "failed",
            mixes: { errorClass: mix("ToolFailure", 10), retryable: mix("retryable", 10), outcome: mix("failed", 10), decision: mix("surfaced", 10) },
            retryAfter: { samples: 0, medianMs: null }, recovery: { calls: 10, recovered: 0 },
          },
          {
            code: "upstream_timeout", calls: 20, class: "ToolFailure", retryable: false, outcome: "failed",
            mixes: { errorClass: mix("ToolFailure", 20), retryable: mix("permanent", 20), outcome: mix("failed", 20), decision: mix("surfaced", 20) },
            retryAfter: { samples: 0, medianMs: null }, recovery: { calls: 20, recovered: 0 },
          },
        ],
      },
    ]);
    const missing = await fetch(server.at("/api/v1/codes/contract?release=9.9.9"), { headers: auth(readKey) });
    expect([missing.status, await missing.json()]).toEqual([404, { error: { code: "not_found", message: `no tool call of ${server.project} was recorded in release 9.9.9` } }]);
  });

  it("is accepted as `against` by POST /api/v1/gate, with the same rules and sentences", async () => {
    const doc = await contract("1.0.0");
    const post = (release: string, against: unknown) =>
      fetch(`${server.url}/api/v1/gate`, {
        method: "POST",
        headers: { ...auth(readKey), "content-type": "application/json" },
        body: JSON.stringify({ project: server.project, release, against }),
      });
    const failed = gateResponseSchema.parse(await (await post("1.0.1", doc)).json());
    expect([failed.verdict, failed.against, failed.unchecked.map((u) => u.check)]).toEqual(["fail", { kind: "contract", release: "1.0.0" }, ["retry_after_p90", "rename_told_wording", "self_correction"]]);
    expect(failed.violations.map((f) => f.sentence)).toEqual([REPURPOSED_PATCH]);

    const passed = gateResponseSchema.parse(await (await post("1.1.0", await contract("1.0.1"))).json());
    expect([passed.verdict, passed.violations, passed.newCodes]).toEqual(["pass", [], [{ tool: "lookup", code: "quota_exceeded", calls: 10 }]]);

    const same = await post("1.0.0", doc);
    expect([same.status, await same.json()]).toEqual([400, { error: { code: "bad_request", message: "against must be an earlier release than 1.0.0; got 1.0.0" } }]);
    const bad = await post("1.0.1", { ...doc, version: 2 });
    expect([bad.status, ((await bad.json()) as { error: { code: string } }).error.code]).toEqual([400, "bad_request"]);
  });
});

describe("key scopes", () => {
  it("lets a read key and no credential (no admin secret configured) read, refuses an ingest key and a stranger's read key", async () => {
    expect((await fetch(server.at("/api/v1/gate?release=1.1.0"))).status).toBe(200);
    const ingestKey = await fetch(server.at("/api/v1/gate?release=1.1.0"), { headers: auth(server.key) });
    expect([ingestKey.status, await ingestKey.json()]).toEqual([
      403,
      { error: { code: "forbidden", message: "this is an ingest key: it cannot read; create a read key with `npm run keys -- create --read`" } },
    ]);
    const contractWithIngestKey = await fetch(server.at("/api/v1/codes/contract?release=1.1.0"), { headers: auth(server.key) });
    expect(contractWithIngestKey.status).toBe(403);
    const elsewhere = await fetch(`${server.url}/api/v1/gate?project=default&release=1.1.0`, { headers: auth(readKey) });
    expect([elsewhere.status, await elsewhere.json()]).toEqual([403, { error: { code: "forbidden", message: `this read key belongs to project ${server.project}, not default` } }]);
    const wrong = await fetch(server.at("/api/v1/gate?release=1.1.0"), { headers: auth(`${readKey.slice(0, -1)}${readKey.endsWith("A") ? "B" : "A"}`) });
    expect([wrong.status, wrong.headers.get("www-authenticate")]).toEqual([401, 'Bearer realm="faultline"']);
  });

  it("refuses a read key at ingest", async () => {
    const res = await fetch(`${server.url}/api/v1/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${readKey}` },
      body: JSON.stringify({ records: [] }),
    });
    expect([res.status, await res.json()]).toEqual([403, { error: { code: "forbidden", message: "this is a read key: it cannot ingest; send an ingest key" } }]);
  });
});
