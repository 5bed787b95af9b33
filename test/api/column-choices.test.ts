// Issue 32, item 2: a person's column choice per table kept on the server (their phone and their
// laptop show the same columns). Exact answers and audit rows; on PostgreSQL too in the api-pg project.
import { describe, expect, it } from "vitest";
import { json, useTeam, type CallerName } from "./team-fixture";

const team = useTeam();

const get = async (who: CallerName) => {
  const res = await fetch(`${team().server.url}/api/v1/column-choices`, { headers: team().headersOf(who) });
  return { status: res.status, body: (await res.json()) as unknown };
};
const put = async (who: CallerName, table: string, body: unknown) => {
  const res = await fetch(`${team().server.url}/api/v1/column-choices/${table}`, json("PUT", team().headersOf(who), body));
  return { status: res.status, body: (await res.json()) as unknown };
};
const audit = async () =>
  (
    await team().server.store.all<{ action: string; actorLabel: string; projectId: string | null; target: string | null; detail: string | null }>(
      `SELECT action, actor_label AS "actorLabel", project_id AS "projectId", target, detail FROM audit_log WHERE action = 'columns.chosen' ORDER BY id`,
    )
  ).map((r) => ({ ...r, detail: r.detail === null ? null : (JSON.parse(r.detail) as unknown) }));

describe("column choices", () => {
  it("are saved for the person who chose them and read back by them only, audited", async () => {
    expect(await get("member")).toEqual({ status: 200, body: { choices: {} } });
    const runs = { errors: "hidden", agent: "shown" };
    expect(await put("member", "runs", { columns: runs })).toEqual({ status: 200, body: runs });
    expect(await put("member", "tools", { columns: { retryAfterP90: "shown" } })).toEqual({ status: 200, body: { retryAfterP90: "shown" } });
    expect(await get("member")).toEqual({ status: 200, body: { choices: { runs: { agent: "shown", errors: "hidden" }, tools: { retryAfterP90: "shown" } } } });
    // Another person (a viewer of the same project, an owner of another) sees none of it.
    expect(await get("viewer")).toEqual({ status: 200, body: { choices: {} } });
    expect(await get("outsider")).toEqual({ status: 200, body: { choices: {} } });
    // Any signed-in role keeps its own; the viewer's does not touch the member's.
    expect(await put("viewer", "runs", { columns: { release: "shown" } })).toEqual({ status: 200, body: { release: "shown" } });
    expect(await get("viewer")).toEqual({ status: 200, body: { choices: { runs: { release: "shown" } } } });
    expect((await get("member")).body).toEqual({ choices: { runs: { agent: "shown", errors: "hidden" }, tools: { retryAfterP90: "shown" } } });
    // The same choice again changes nothing; a reset is kept as "chosen: by priority".
    expect(await put("member", "runs", { columns: { agent: "shown", errors: "hidden" } })).toEqual({ status: 200, body: runs });
    expect(await put("member", "tools", { columns: {} })).toEqual({ status: 200, body: {} });
    expect((await get("member")).body).toEqual({ choices: { runs: { agent: "shown", errors: "hidden" }, tools: {} } });
    expect(await audit()).toEqual([
      { action: "columns.chosen", actorLabel: "member@acme.test", projectId: null, target: "runs", detail: { from: null, to: runs, hidden: ["errors"] } },
      { action: "columns.chosen", actorLabel: "member@acme.test", projectId: null, target: "tools", detail: { from: null, to: { retryAfterP90: "shown" }, hidden: [] } },
      { action: "columns.chosen", actorLabel: "viewer@acme.test", projectId: null, target: "runs", detail: { from: null, to: { release: "shown" }, hidden: [] } },
      { action: "columns.chosen", actorLabel: "member@acme.test", projectId: null, target: "tools", detail: { from: { retryAfterP90: "shown" }, to: {}, hidden: [] } },
    ]);
  });

  it("refuse unknown columns, values and tables in the envelope, and keep the choice there was", async () => {
    expect(await put("admin", "runs", { columns: { agent: "shown", bogus: "hidden" } })).toEqual({
      status: 400,
      body: {
        error: {
          code: "bad_request",
          message: 'invalid body: runs has no choosable column "bogus" (it has agent, release, state, startedAt, duration, toolCalls, attempts, retries, failedAttempts, errors, declined, refused, unanswered)',
          issues: [{ path: "columns.bogus", message: 'runs has no choosable column "bogus" (it has agent, release, state, startedAt, duration, toolCalls, attempts, retries, failedAttempts, errors, declined, refused, unanswered)' }],
        },
      },
    });
    // The row's own column is not choosable: it always shows.
    expect((await put("admin", "codes", { columns: { code: "hidden" } })).status).toBe(400);
    const badValue = await put("admin", "runs", { columns: { agent: "maybe" } });
    expect(badValue.status).toBe(400);
    expect(badValue.body).toMatchObject({ error: { code: "bad_request", issues: [{ path: "columns.agent" }] } });
    expect((await put("admin", "runs", { columns: "agent" })).status).toBe(400);
    expect(await put("admin", "alerts", { columns: {} })).toEqual({
      status: 404,
      body: { error: { code: "not_found", message: 'no table "alerts" has a column chooser (tools, codes, runs do)' } },
    });
    expect((await get("admin")).body).toEqual({ choices: {} });
    expect((await put("anonymous", "runs", { columns: {} })).status).toBe(401);
    expect((await get("anonymous")).status).toBe(401);
  });
});
