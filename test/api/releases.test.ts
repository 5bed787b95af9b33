// Release health and the regression alert on a real server (both engines with the api-pg project):
// runs of two releases whose told outcomes, calls and failures are known by construction; an issue
// resolved in the next release regresses in the later one, a regression rule delivers to a real
// local receiver naming the issue, and the release reads answer exact figures.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { alertReceiverCreatedSchema, alertRulePreviewSchema, alertRuleSchema } from "@/lib/contracts/alerts";
import { issueDetailSchema } from "@/lib/contracts/issues";
import { releaseHealthSchema, releasesSchema } from "@/lib/contracts/releases";
import { issueId } from "@/lib/triage/issue-batch";
import { startServer, type TestServer } from "../helpers/server";
import { toldRunRecords, type ToldRunSpec } from "../helpers/told-runs";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

const ENV = { FAULTLINE_ALERT_INTERVAL_MS: "150", FAULTLINE_ALERT_ALLOW_PRIVATE: "1", FAULTLINE_PUBLIC_URL: "http://faultline.test" };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Three hours ago on the hour: every record of a release lands in one hour and in one UTC day.
const T = Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR;
const SEARCH = issueId("default", "search", "upstream_unavailable");
const STALE = issueId("default", "lookup", "stale_index");
const LIMITED = issueId("default", "lookup", "rate_limited");

let server: TestServer;
let hook: WebhookReceiver;

const post = (path: string, body: unknown, method = "POST") => fetch(`${server.url}${path}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const read = async (path: string) => {
  const res = await fetch(`${server.url}${path}`);
  expect(res.status).toBe(200);
  return (await res.json()) as unknown;
};

async function ingest(records: unknown[]): Promise<void> {
  const res = await fetch(`${server.url}/api/v1/ingest`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` },
    body: JSON.stringify({ resource: { service: "agent" }, records }),
  });
  expect(res.status).toBe(200);
}

const told = (runId: string, release: string, next: ToldRunSpec["next"], at: number) => {
  const r = toldRunRecords({ runId, release, tool: "search", code: "upstream_unavailable", told: "upstream unavailable, try later", next, at });
  return [...r.error, ...r.next, ...r.end];
};
const lookup = (id: string, release: string, at: number, outcome: string, code?: string) => ({
  type: "tool_call_span", id, run_id: `run-${id}`, call_id: `call-${id}`, tool: "lookup", attempt: 1, started_at: at, ended_at: at + 5, outcome, release,
  ...(code ? { code, decision: "surfaced" } : {}),
});

beforeAll(async () => {
  hook = await startWebhookReceiver();
  server = await startServer({ env: ENV, dialect: inject("serverDialect") });
  const receiver = alertReceiverCreatedSchema.parse(await (await post("/api/v1/alerts/receivers", { project: "default", name: "ops", url: hook.url, format: "json" })).json());
  const rule = await post("/api/v1/alerts/rules", { project: "default", name: "regressions", params: { kind: "issue_regressed" }, receiverId: receiver.id });
  expect(alertRuleSchema.parse(await rule.json()).params).toEqual({ kind: "issue_regressed" });
}, 120_000);
afterAll(async () => {
  await hook?.close();
  await server?.stop();
});

describe("a regression and the release health of two releases", () => {
  it("regresses an issue resolved in the next release and delivers one alert naming it", async () => {
    // 1.4.0: the model recovers from one surfaced error of two; lookup fails once.
    await ingest([...told("r1", "1.4.0", "recovered", T), ...told("r2", "1.4.0", "repeated", T + 60_000), lookup("m1", "1.4.0", T + 120_000, "failed", "stale_index")]);
    let res = await post(`/api/v1/issues/${SEARCH}`, { triage: { state: "resolved", mode: "next_release" } }, "PATCH");
    expect(issueDetailSchema.parse(await res.json()).issue.resolution).toMatchObject({ mode: "next_release", release: "1.4.0" });
    res = await post(`/api/v1/issues/${STALE}`, { triage: { state: "resolved", mode: "in_release", release: "1.5.0" } }, "PATCH");
    expect(res.status).toBe(200);

    // 1.5.0, ten minutes later: it recovers from both; lookup fails once with a new code and succeeds once.
    const at = T + 10 * 60_000;
    await ingest([...told("r3", "1.5.0", "recovered", at), ...told("r4", "1.5.0", "recovered", at + 60_000), lookup("m2", "1.5.0", at + 120_000, "failed", "rate_limited"), lookup("m3", "1.5.0", at + 130_000, "ok")]);
    const [fired] = await hook.waitFor(1);
    const link = `http://faultline.test/issues?issue=${SEARCH}`;
    expect(JSON.parse(fired!.body)).toMatchObject({
      rule: { name: "regressions", kind: "issue_regressed" },
      status: "firing",
      tool: "search",
      code: "upstream_unavailable",
      value: "failed again in 1.5.0 after it was resolved in the release after 1.4.0",
      link,
      releases: ["1.5.0"],
      issue: { id: SEARCH, state: "regressed", link },
    });
    const detail = issueDetailSchema.parse(await read(`/api/v1/issues/${SEARCH}`));
    expect(detail.issue.state).toBe("regressed");
    expect(detail.alerts.map((a) => [a.ruleName, a.status])).toEqual([["regressions", "firing"]]);
    const preview = alertRulePreviewSchema.parse(await (await post("/api/v1/alerts/rules/preview", { project: "default", params: { kind: "issue_regressed", tool: "search" } })).json());
    expect(preview.episodes.map((e) => [e.tool, e.code, e.resolvedAt])).toEqual([["search", "upstream_unavailable", null]]);
  });

  it("answers every release in version order with its calls, runs and daily adoption", async () => {
    const answer = releasesSchema.parse(await read("/api/v1/releases?project=default"));
    expect(answer.order).toBe("semver");
    // search: 2 calls a run (the failing one and what came next); lookup: one call a span.
    expect(answer.releases).toEqual([
      { release: "1.4.0", firstSeen: T, lastSeen: T, calls: 5, callsNotOk: 4, runs: 3 },
      { release: "1.5.0", firstSeen: T, lastSeen: T, calls: 6, callsNotOk: 3, runs: 4 },
    ]);
    const day = Math.floor(T / DAY) * DAY;
    expect(answer.adoption.days).toEqual([{ at: day, runs: { "1.4.0": 3, "1.5.0": 4 } }]);
    expect(answer.adoption.to - answer.adoption.from).toBe(30 * DAY);
    const bad = await fetch(`${server.url}/api/v1/releases?days=0`);
    expect(bad.status).toBe(400);
  });

  it("answers one release against the previous: tools, self-correction, new, regressed and resolved issues", async () => {
    const health = releaseHealthSchema.parse(await read("/api/v1/releases/1.5.0?project=default"));
    expect(health).toEqual({
      release: "1.5.0",
      previous: "1.4.0",
      order: "semver",
      firstSeen: T,
      lastSeen: T,
      runs: 4,
      tools: [
        {
          tool: "lookup", calls: 2, callsNotOk: 1, failureShare: 0.5, told: { decided: 0, recovered: 0 }, selfCorrection: null,
          previous: { calls: 1, callsNotOk: 1, failureShare: 1, told: { decided: 0, recovered: 0 }, selfCorrection: null },
        },
        {
          tool: "search", calls: 4, callsNotOk: 2, failureShare: 0.5, told: { decided: 2, recovered: 2 }, selfCorrection: 1,
          previous: { calls: 4, callsNotOk: 3, failureShare: 0.75, told: { decided: 2, recovered: 1 }, selfCorrection: 0.5 },
        },
      ],
      issues: {
        new: [{ id: LIMITED, tool: "lookup", code: "rate_limited", state: "open", failures: 1 }],
        regressed: [{ id: SEARCH, tool: "search", code: "upstream_unavailable", state: "regressed", failures: 2 }],
        resolved: [{ id: STALE, tool: "lookup", code: "stale_index", state: "resolved", failures: 1 }],
      },
    });
    const first = releaseHealthSchema.parse(await read("/api/v1/releases/1.4.0?project=default"));
    expect([first.previous, first.issues.new.map((i) => i.code), first.issues.resolved]).toEqual([null, ["upstream_unavailable", "stale_index"], []]);
    const missing = await fetch(`${server.url}/api/v1/releases/9.9.9?project=default`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });

  it("resolves the alert once the issue is triaged again", async () => {
    const res = await post(`/api/v1/issues/${SEARCH}`, { triage: { state: "resolved", mode: "in_release", release: "1.6.0" } }, "PATCH");
    expect(res.status).toBe(200);
    const all = await hook.waitFor(2);
    expect(JSON.parse(all[1]!.body)).toMatchObject({ status: "resolved", tool: "search", issue: { id: SEARCH, state: "resolved" } });
  });
});
