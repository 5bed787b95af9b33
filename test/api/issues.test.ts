// Issues on the real server (both engines with the api-pg project): created by ingest, ranked by
// impact, filtered, resolved in the next release, kept resolved by a failure in the same release,
// regressed by one in a later release; assigned to a member, noted, each change in the history and
// the audit log.
import { beforeAll, describe, expect, it } from "vitest";
import { createKey } from "@/db/keys";
import { issueCountsAnswerSchema } from "@/lib/contracts/issue-counts";
import { issueDetailSchema, issuesSchema } from "@/lib/contracts/issues";
import { issueId } from "@/lib/triage/issue-batch";
import { useTeam } from "./team-fixture";

// A server of its own (accounts end setup mode): the member triages, the viewer may only read.
const team = useTeam();
let server: { url: string; project: string; key: string; store: ReturnType<typeof team>["server"]["store"]; at: (p: string) => string };
let memberId = "";
beforeAll(async () => {
  const t = team();
  const { key } = await createKey(t.server.store, t.project, "issues ingest");
  server = { url: t.server.url, project: t.project, key, store: t.server.store, at: (p) => `${t.server.url}${p}${p.includes("?") ? "&" : "?"}project=${t.project}` };
  memberId = t.accounts.member.userId;
});

// A fixed hour two hours ago: inside the last 24 hours (the trend's current period).
const T = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 3_600_000;
let n = 0;
function span(tool: string, code: string | null, outcome: string, version: string, over: Record<string, unknown> = {}) {
  const i = n++;
  return {
    type: "tool_call_span", id: `s-${i}`, run_id: `run-${over.run ?? i}`, call_id: `c-${i}`, tool, tool_version: version, attempt: 1,
    started_at: T + i * 1000, ended_at: T + i * 1000 + 5, outcome, code, ...over,
  };
}

async function ingest(records: unknown[]): Promise<void> {
  const res = await fetch(`${server.url}/api/v1/ingest`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` },
    body: JSON.stringify({ resource: { service: "agent" }, records }),
  });
  expect(res.status).toBe(200);
}

const send = (path: string, method: string, body: unknown, who: "member" | "viewer" = "member") =>
  fetch(server.url + path, { method, headers: { "content-type": "application/json", ...team().headersOf(who) }, body: JSON.stringify(body) });

async function list(query = "") {
  const res = await fetch(server.at(`/api/v1/issues?${query.replace(/^&/, "")}`), { headers: team().headersOf("viewer") });
  expect(res.status).toBe(200);
  return issuesSchema.parse(await res.json());
}

async function detail(id: string) {
  const res = await fetch(server.at(`/api/v1/issues/${id}`), { headers: team().headersOf("viewer") });
  expect(res.status).toBe(200);
  return issueDetailSchema.parse(await res.json());
}

describe("issues", () => {
  const booking = () => issueId(server.project, "book_flight", "upstream_unavailable");

  it("opens an issue per failing code per tool at ingest and ranks them by impact", async () => {
    await ingest([
      span("book_flight", "upstream_unavailable", "failed", "1.4.0", { decision: "retried", backoff_ms: 200, run: "a" }),
      span("book_flight", "upstream_unavailable", "failed", "1.4.0", { decision: "exhausted", run: "a" }),
      span("book_flight", "upstream_unavailable", "failed", "1.4.1", { decision: "surfaced", run: "b" }),
      span("search", null, "timed_out", "2.0.0", { run: "c" }),
      span("search", null, "timed_out", "2.0.0", { run: "d" }),
      span("search", null, "timed_out", "2.0.0", { run: "e" }),
      span("search", "no_results", "declined", "2.0.0"),
    ]);
    const answer = await list();
    expect(answer.counts).toEqual({ open: 2, regressed: 0, resolved: 0, ignored: 0, unresolved: 2 });
    // One unrecovered failure outranks three runs with none.
    expect(answer.issues).toEqual([
      {
        id: booking(), tool: "book_flight", code: "upstream_unavailable", state: "open", resolution: null, ignore: null, assignee: null,
        failures: 3, unrecovered: 1, runs: 2, retries: 1, waitMs: 200, trend: { current: 3, previous: 0 },
        firstSeen: T, lastSeen: T + 2000, releases: { first: "1.4.0", last: "1.4.1", count: 2 }, group: null,
      },
      {
        id: issueId(server.project, "search", "timed_out"), tool: "search", code: "timed_out", state: "open", resolution: null, ignore: null, assignee: null,
        failures: 3, unrecovered: 0, runs: 3, retries: 0, waitMs: 0, trend: { current: 3, previous: 0 },
        firstSeen: T + 3000, lastSeen: T + 5000, releases: { first: "2.0.0", last: "2.0.0", count: 1 }, group: null,
      },
    ]);
    expect((await list("&tool=search")).issues.map((i) => i.code)).toEqual(["timed_out"]);
    expect((await list("&code=timed_out")).issues.map((i) => i.tool)).toEqual(["search"]);
    expect((await list("&state=resolved")).issues).toEqual([]);
    expect((await list("&state=&tool=")).issues).toHaveLength(2);
    const bad = await fetch(server.at("/api/v1/issues?state=closed"), { headers: team().headersOf("viewer") });
    expect(bad.status).toBe(400);
  });

  it("resolved in the next release: stays resolved on a failure in the same release, regresses in a later one", async () => {
    const res = await send(`/api/v1/issues/${booking()}`, "PATCH", { triage: { state: "resolved", mode: "next_release" } });
    expect(res.status).toBe(200);
    expect(issueDetailSchema.parse(await res.json()).issue).toMatchObject({ state: "resolved", resolution: { mode: "next_release", release: "1.4.1" } });

    await ingest([span("book_flight", "upstream_unavailable", "failed", "1.4.1")]);
    expect((await detail(booking())).issue.state).toBe("resolved");
    await ingest([span("book_flight", "upstream_unavailable", "failed", "1.5.0")]);
    const d = await detail(booking());
    expect(d.issue).toMatchObject({ state: "regressed", failures: 5, releases: { first: "1.4.0", last: "1.5.0", count: 3 } });
    expect(d.releases.map((r) => [r.release, r.failures])).toEqual([["1.4.0", 2], ["1.4.1", 2], ["1.5.0", 1]]);
    // The regression goes to the top, ahead of the other open issue.
    const answer = await list();
    expect(answer.issues.map((i) => [i.code, i.state])).toEqual([["upstream_unavailable", "regressed"], ["timed_out", "open"]]);
    expect(answer.counts).toEqual({ open: 1, regressed: 1, resolved: 0, ignored: 0, unresolved: 2 });
  });

  it("assigns to a project member, refuses anyone else, keeps notes, and records each change", async () => {
    let res = await send(`/api/v1/issues/${booking()}`, "PATCH", { assignee: memberId });
    expect(res.status).toBe(200);
    expect(issueDetailSchema.parse(await res.json()).issue.assignee).toEqual({ userId: memberId, name: "member" });
    res = await send(`/api/v1/issues/${booking()}`, "PATCH", { assignee: "nobody-here" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "bad_request", message: `nobody-here is not a member of project ${server.project}` });
    res = await send(`/api/v1/issues/${booking()}/notes`, "POST", { text: "upstream fixed their pool" });
    expect(res.status).toBe(201);
    res = await send(`/api/v1/issues/${booking()}`, "PATCH", { triage: { state: "ignored", mode: "until_count", failures: 10 } });
    expect(issueDetailSchema.parse(await res.json()).issue).toMatchObject({ state: "ignored", ignore: { mode: "until_count", limit: 15 } });
    expect((await list(`&assignee=${memberId}`)).issues.map((i) => i.code)).toEqual(["upstream_unavailable"]);
    expect((await list("&assignee=none")).issues.map((i) => i.code)).toEqual(["timed_out"]);

    const history = (await detail(booking())).history.map((h) => [h.kind, h.detail]);
    expect(history).toEqual([
      ["created", "first failed in 1.4.0"],
      ["state", "resolved in the release after 1.4.1"],
      ["regressed", "failed again in 1.5.0 after it was resolved in the release after 1.4.1"],
      ["assigned", "assigned to member"],
      ["note", "upstream fixed their pool"],
      ["state", "ignored until 10 more failures"],
    ]);
    const audit = await server.store.all<{ action: string; target: string; actor: string }>(
      "SELECT action, target, actor_label AS \"actor\" FROM audit_log WHERE project_id = ? AND action LIKE 'issue.%' ORDER BY id",
      [server.project],
    );
    expect(audit).toEqual([
      { action: "issue.state_changed", target: "book_flight upstream_unavailable", actor: "member@acme.test" },
      { action: "issue.assigned", target: "book_flight upstream_unavailable", actor: "member@acme.test" },
      { action: "issue.noted", target: "book_flight upstream_unavailable", actor: "member@acme.test" },
      { action: "issue.state_changed", target: "book_flight upstream_unavailable", actor: "member@acme.test" },
    ]);
  });

  it("answers 404 for an unknown issue and 400 for a bad decision", async () => {
    expect((await fetch(server.at("/api/v1/issues/nope"), { headers: team().headersOf("viewer") })).status).toBe(404);
    expect((await send("/api/v1/issues/nope", "PATCH", { triage: { state: "open", mode: "open" } })).status).toBe(404);
    const res = await send(`/api/v1/issues/${booking()}`, "PATCH", { triage: { state: "resolved", mode: "someday" } });
    expect(res.status).toBe(400);
  });

  it("counts per state alone at /api/v1/issues/counts (the navigation's badge), as the list counts them", async () => {
    const counts = async () => {
      const res = await fetch(server.at("/api/v1/issues/counts"), { headers: team().headersOf("viewer") });
      expect(res.status).toBe(200);
      return issueCountsAnswerSchema.parse(await res.json()).counts;
    };
    // As the tests above left them: booking ignored, timed_out open.
    expect(await counts()).toEqual({ open: 1, regressed: 0, resolved: 0, ignored: 1, unresolved: 1 });
    expect(await counts()).toEqual((await list()).counts);
    const timedOut = issueId(server.project, "search", "timed_out");
    expect((await send(`/api/v1/issues/${timedOut}`, "PATCH", { triage: { state: "ignored", mode: "until_count", failures: 10 } })).status).toBe(200);
    expect(await counts()).toEqual({ open: 0, regressed: 0, resolved: 0, ignored: 2, unresolved: 0 });
    // Ignored until a moment already past: open again, in the counts as in the list.
    expect((await send(`/api/v1/issues/${timedOut}`, "PATCH", { triage: { state: "ignored", mode: "until_date", until: Date.now() - 60_000 } })).status).toBe(200);
    expect(await counts()).toEqual({ open: 1, regressed: 0, resolved: 0, ignored: 1, unresolved: 1 });
    expect((await list("&state=ignored")).counts).toEqual(await counts());
    const bad = await fetch(`${server.url}/api/v1/issues/counts?project=${"x".repeat(201)}`, { headers: team().headersOf("viewer") });
    expect(bad.status).toBe(400);
  });
});
