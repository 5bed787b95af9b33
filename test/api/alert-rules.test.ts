// The alert rules and receivers API on the real server: defaults made with the project, create,
// edit, mute, snooze, delete, and the refusals (bad params, foreign receiver, cross-site writes).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject } from "@/db/keys";
import { alertReceiverCreatedSchema, alertReceiversSchema, alertRuleSchema, alertRulesSchema, type AlertRule } from "@/lib/contracts/alerts";
import { openProject, type ProjectServer } from "../helpers/project";

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

async function rules(): Promise<AlertRule[]> {
  const res = await fetch(server.at("/api/v1/alerts/rules"));
  expect(res.status).toBe(200);
  return alertRulesSchema.parse(await res.json()).rules;
}

async function createRule(body: Record<string, unknown>): Promise<AlertRule> {
  const res = await fetch(`${server.url}/api/v1/alerts/rules`, json("POST", { project: server.project, ...body }));
  expect(res.status).toBe(201);
  return alertRuleSchema.parse(await res.json());
}

describe("alert rules", () => {
  it("starts a project with the default rules: new code and critical drift, unmuted, sending nowhere", async () => {
    const list = await rules();
    expect(list.map((r) => [r.name, r.params, r.muted, r.snoozedUntil, r.receiverId])).toEqual([
      ["New error code for a tool", { kind: "new_code" }, false, null, null],
      ["Critical drift finding", { kind: "drift", minSeverity: "critical" }, false, null, null],
    ]);
  });

  it("creates, edits, mutes, snoozes and deletes a rule", async () => {
    const created = await createRule({ name: "lookup failing", params: { kind: "failure_rate", tool: "lookup", windowMinutes: 10, threshold: 0.5, minCalls: 20 } });
    expect([created.project, created.name, created.params, created.muted]).toEqual([
      server.project,
      "lookup failing",
      { kind: "failure_rate", tool: "lookup", windowMinutes: 10, threshold: 0.5, minCalls: 20 },
      false,
    ]);
    const at = `${server.url}/api/v1/alerts/rules/${created.id}`;

    let res = await fetch(at, json("PATCH", { name: "lookup failing hard", params: { kind: "failure_rate", tool: "lookup", windowMinutes: 5, threshold: 0.8, minCalls: 10 } }));
    expect(res.status).toBe(200);
    const edited = alertRuleSchema.parse(await res.json());
    expect([edited.name, edited.params]).toEqual(["lookup failing hard", { kind: "failure_rate", tool: "lookup", windowMinutes: 5, threshold: 0.8, minCalls: 10 }]);

    res = await fetch(at, json("PATCH", { muted: true, snoozedUntil: 1_900_000_000_000 }));
    expect(alertRuleSchema.parse(await res.json())).toMatchObject({ muted: true, snoozedUntil: 1_900_000_000_000, name: "lookup failing hard" });
    res = await fetch(at, json("PATCH", { muted: false, snoozedUntil: null }));
    expect(alertRuleSchema.parse(await res.json())).toMatchObject({ muted: false, snoozedUntil: null });

    expect((await rules()).map((r) => r.name)).toEqual(["New error code for a tool", "Critical drift finding", "lookup failing hard"]);
    expect((await fetch(at, { method: "DELETE" })).status).toBe(204);
    expect((await fetch(at, { method: "DELETE" })).status).toBe(404);
    expect((await fetch(at, json("PATCH", { muted: true }))).status).toBe(404);
    expect((await rules()).map((r) => r.name)).toEqual(["New error code for a tool", "Critical drift finding"]);
  });

  it("refuses params that do not fit the kind, an empty edit and an unknown project, naming the field", async () => {
    let res = await fetch(`${server.url}/api/v1/alerts/rules`, json("POST", { project: server.project, name: "x", params: { kind: "retry_storm", windowMinutes: 5 } }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("give perMinute, perCall or both");
    res = await fetch(`${server.url}/api/v1/alerts/rules`, json("POST", { project: server.project, name: "x", params: { kind: "failure_rate", windowMinutes: 5, threshold: 1.5, minCalls: 1 } }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { issues: { path: string }[] } }).error.issues.map((i) => i.path)).toEqual(["params.threshold"]);
    const [first] = await rules();
    res = await fetch(`${server.url}/api/v1/alerts/rules/${first!.id}`, json("PATCH", {}));
    expect(res.status).toBe(400);
    res = await fetch(`${server.url}/api/v1/alerts/rules`, json("POST", { project: "no-such-project", name: "x", params: { kind: "new_code" } }));
    expect(res.status).toBe(404);
  });

  it("refuses a cross-site write and a body that is not JSON", async () => {
    const body = { project: server.project, name: "x", params: { kind: "new_code" } };
    let res = await fetch(`${server.url}/api/v1/alerts/rules`, json("POST", body, { origin: "https://evil.example" }));
    expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([403, "forbidden"]);
    res = await fetch(`${server.url}/api/v1/alerts/rules`, json("POST", body, { "sec-fetch-site": "cross-site" }));
    expect(res.status).toBe(403);
    res = await fetch(`${server.url}/api/v1/alerts/rules`, { method: "POST", headers: { "content-type": "text/plain" }, body: JSON.stringify(body) });
    expect(res.status).toBe(415);
    const [first] = await rules();
    res = await fetch(`${server.url}/api/v1/alerts/rules/${first!.id}`, { method: "DELETE", headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    // The same origin passes.
    res = await fetch(`${server.url}/api/v1/alerts/rules`, json("POST", body, { origin: server.url }));
    expect(res.status).toBe(201);
  });
});

describe("alert receivers", () => {
  it("creates a receiver, shows its secret once, and lets a rule send to it", async () => {
    let res = await fetch(`${server.url}/api/v1/alerts/receivers`, json("POST", { project: server.project, name: "ops", url: "http://127.0.0.1:9/hook", format: "slack" }));
    expect(res.status).toBe(201);
    const created = alertReceiverCreatedSchema.parse(await res.json());
    expect([created.name, created.url, created.format, created.secret?.length]).toEqual(["ops", "http://127.0.0.1:9/hook", "slack", 32]);
    res = await fetch(server.at("/api/v1/alerts/receivers"));
    const listed = alertReceiversSchema.parse(await res.json()).receivers;
    expect(listed).toEqual([{ id: created.id, project: server.project, name: "ops", url: "http://127.0.0.1:9/hook", format: "slack", createdAt: created.createdAt }]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    const rule = await createRule({ name: "to ops", params: { kind: "failed_closed", windowMinutes: 15, threshold: 3 }, receiverId: created.id });
    expect(rule.receiverId).toBe(created.id);
    expect((await fetch(`${server.url}/api/v1/alerts/receivers/${created.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await rules()).find((r) => r.id === rule.id)?.receiverId).toBeNull();
  });

  it("refuses a URL that is not http(s), carries credentials, or a receiver of another project", async () => {
    for (const [url, reason] of [
      ["file:///etc/passwd", "only http and https URLs are allowed, not file"],
      ["https://user:pw@hooks.example/x", "a webhook URL may not carry credentials; the body is signed instead"],
    ]) {
      const res = await fetch(`${server.url}/api/v1/alerts/receivers`, json("POST", { project: server.project, name: "bad", url }));
      expect([res.status, ((await res.json()) as { error: { message: string } }).error.message]).toEqual([400, `invalid url: ${reason}`]);
    }
    const other = `${server.project}-other`;
    await createProject(server.store, other, "Other");
    const res = await fetch(`${server.url}/api/v1/alerts/receivers`, json("POST", { project: other, name: "theirs", url: "https://hooks.example/x" }));
    const theirs = alertReceiverCreatedSchema.parse(await res.json());
    const refused = await fetch(`${server.url}/api/v1/alerts/rules`, json("POST", { project: server.project, name: "x", params: { kind: "new_code" }, receiverId: theirs.id }));
    expect(refused.status).toBe(400);
  });
});
