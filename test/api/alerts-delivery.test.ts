// Alerts end to end on a real server and a real local receiver: a failure-rate rule fires and
// resolves on exact fixtures, signed as docs/alerts.md documents; a receiver that is down while
// the server restarts gets every notification once it is back; Slack receivers get text + blocks.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { alertHistorySchema, alertReceiverCreatedSchema, alertRuleSchema } from "@/lib/contracts/alerts";
import { issueId } from "@/lib/triage/issue-batch";
import { startServer, type TestServer } from "../helpers/server";
import { ingestLookupCalls } from "../helpers/lookup-calls";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver";

const ENV = {
  FAULTLINE_ALERT_INTERVAL_MS: "150",
  FAULTLINE_ALERT_RETRY_BASE_MS: "100",
  FAULTLINE_ALERT_RETRY_CAP_MS: "300",
  FAULTLINE_ALERT_ALLOW_PRIVATE: "1",
  FAULTLINE_PUBLIC_URL: "http://faultline.test",
};
const SECRET = "receiver-secret-0123456789";

type Verify = (secret: string, timestamp: string | undefined, signature: string | undefined, body: string) => boolean;

/** The verification snippet exactly as docs/alerts.md prints it, loaded as a module. */
async function documentedVerify(): Promise<Verify> {
  const doc = readFileSync(path.join(process.cwd(), "docs/alerts.md"), "utf8");
  const code = doc.split("<!-- verify-snippet -->\n```js\n")[1]!.split("```")[0]!;
  const file = path.join(mkdtempSync(path.join(tmpdir(), "faultline-verify-")), "verify.mjs");
  writeFileSync(file, code);
  return ((await import(pathToFileURL(file).href)) as { verifyFaultline: Verify }).verifyFaultline;
}

const dialect = inject("serverDialect");
let dir: string;
let first: TestServer;
let current: TestServer;
let hook: WebhookReceiver;
let slack: WebhookReceiver;
let flaky: WebhookReceiver;
let gone: WebhookReceiver;
let seq = 0;

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

const ingestCalls = (failed: number, ok: number) => ingestLookupCalls(current, { failed, ok, seq: () => ++seq });

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "faultline-alerts-"));
  hook = await startWebhookReceiver();
  slack = await startWebhookReceiver();
  flaky = await startWebhookReceiver(503);
  gone = await startWebhookReceiver(410);
  first = await startServer({ env: ENV, dialect, ...(dialect === "sqlite" ? { sqliteDir: dir } : {}) });
  current = first;
  const receiver = async (name: string, url: string, format: string) => {
    const res = await post(`${current.url}/api/v1/alerts/receivers`, { project: "default", name, url, format, secret: SECRET });
    expect(res.status).toBe(201);
    return alertReceiverCreatedSchema.parse(await res.json()).id;
  };
  const json = await receiver("ops", hook.url, "json");
  const chat = await receiver("chat", slack.url, "slack");
  const receivers = [json, chat, await receiver("flaky", flaky.url, "json"), await receiver("gone", gone.url, "json")];
  for (const receiverId of receivers) {
    const res = await post(`${current.url}/api/v1/alerts/rules`, {
      project: "default",
      name: "lookup failing",
      params: { kind: "failure_rate", tool: "lookup", windowMinutes: 60, threshold: 0.5, minCalls: 4 },
      receiverId,
    });
    expect(alertRuleSchema.parse(await res.json()).receiverId).toBe(receiverId);
  }
}, 120_000);
afterAll(async () => {
  await hook?.close();
  await slack?.close();
  await flaky?.close();
  await gone?.close();
  if (current !== first) await current?.stop();
  await first?.stop();
});

const payload = (h: { body: string }) => JSON.parse(h.body) as Record<string, unknown>;
const LOOKUP_ISSUE = issueId("default", "lookup", "upstream_timeout");

describe("alert delivery", () => {
  it("fires once on a failing tool and resolves once it recovers, signed as documented", async () => {
    await ingestCalls(3, 1);
    const [fired] = await hook.waitFor(1);
    expect(payload(fired!)).toMatchObject({
      project: "default",
      rule: { name: "lookup failing", kind: "failure_rate" },
      status: "firing",
      tool: "lookup",
      code: "upstream_timeout",
      value: "75% of 4 calls failed in 60 min",
      link: "http://faultline.test/tools/lookup",
      threshold: "more than 50% of calls failed in 60 min (at least 4 calls)",
      codes: [{ code: "upstream_timeout", count: 3 }],
      releases: ["1.0.0"],
      durationMs: null,
      // The issue of the code most of the failures carried, with its state and page.
      issue: { id: LOOKUP_ISSUE, state: "open", link: `http://faultline.test/issues?issue=${LOOKUP_ISSUE}` },
    });
    // The three failing runs, each linked to its timeline.
    const runs = (payload(fired!).runs as { id: string; link: string }[]).map((r) => [r.id, r.link.replace(/r\d+$/, "rN")]);
    expect(runs).toEqual(Array.from({ length: 3 }, () => [expect.stringMatching(/^r\d+$/), "http://faultline.test/runs/rN"]));
    const verify = await documentedVerify();
    const ts = fired!.headers["x-faultline-timestamp"] as string;
    const sig = fired!.headers["x-faultline-signature"] as string;
    expect(verify(SECRET, ts, sig, fired!.body)).toBe(true);
    expect(verify("another-secret-0123456789", ts, sig, fired!.body)).toBe(false);
    expect(verify(SECRET, ts, sig, fired!.body.replace("75%", "74%"))).toBe(false);

    await ingestCalls(0, 10);
    const all = await hook.waitFor(2);
    expect(payload(all[1]!)).toMatchObject({ status: "resolved", tool: "lookup", link: "http://faultline.test/tools/lookup" });
    const resolved = payload(all[1]!) as { value: string; durationMs: number; since: number; at: number };
    expect(resolved.value).toMatch(/^resolved after \d+ s; now 21.4% of 14 calls failed in 60 min$/);
    expect(resolved.durationMs).toBe(resolved.at - resolved.since);
    expect(all.map((h) => payload(h).status)).toEqual(["firing", "resolved"]);
  });

  it("sends Slack receivers text and blocks", async () => {
    const [fired, resolved] = await slack.waitFor(2);
    expect(JSON.parse(fired!.body)).toEqual({
      text: "FIRING: lookup failing (lookup / upstream_timeout) — 75% of 4 calls failed in 60 min — issue open",
      blocks: [
        {
          type: "section",
          text: {
            type: "mrkdwn",
            text: expect.stringMatching(
              /^\*:red_circle: Firing: lookup failing\*\n`lookup`: 75% of 4 calls failed in 60 min, crossing more than 50% of calls failed in 60 min \(at least 4 calls\); codes `upstream_timeout` \(3\); release 1\.0\.0; since \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/,
            ) as unknown as string,
          },
        },
        { type: "context", elements: [{ type: "mrkdwn", text: expect.stringMatching(new RegExp(`^project default · tool lookup · code upstream_timeout · release 1\\.0\\.0 · <http://faultline\\.test/issues\\?issue=${LOOKUP_ISSUE}\\|issue open> · since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`)) as unknown as string }] },
        { type: "section", text: { type: "mrkdwn", text: expect.stringMatching(/^Runs: <http:\/\/faultline\.test\/runs\/r\d+\|r\d+> · /) as unknown as string } },
        { type: "actions", elements: [{ type: "button", text: { type: "plain_text", text: "Open in Faultline" }, url: "http://faultline.test/tools/lookup" }] },
      ],
    });
    expect((JSON.parse(resolved!.body) as { text: string }).text).toMatch(/^RESOLVED: lookup failing \(lookup \/ upstream_timeout\) — resolved after \d+ s — issue open$/);
  });

  it("retries a 5xx until it is answered, and never retries a 410", async () => {
    const attemptsAt = async (url: string) =>
      current.store.all<{ status: string; http_status: number | null; delivered_at: number | null; gave_up_at: number | null }>(
        `SELECT o.status, a.http_status, o.delivered_at, o.gave_up_at FROM alert_attempts a JOIN alert_outbox o ON o.id = a.outbox_id
         JOIN alert_receivers r ON r.id = o.receiver_id WHERE r.url = ? ORDER BY a.id`,
        [url],
      );
    // The 503 receiver has been tried four times (the firing and the resolved notification, retried).
    await flaky.waitFor(4);
    flaky.answer(200);
    for (let deadline = Date.now() + 20_000; ; ) {
      const rows = await attemptsAt(flaky.url);
      if (rows.filter((r) => r.http_status === 200).length === 2) {
        expect(rows.filter((r) => r.http_status !== 200).every((r) => r.http_status === 503)).toBe(true);
        expect(rows.every((r) => r.delivered_at !== null)).toBe(true);
        break;
      }
      if (Date.now() > deadline) throw new Error(`not delivered after recovery: ${JSON.stringify(rows)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    // The 410 receiver got each notification once and was given up on at once.
    const goneRows = await attemptsAt(gone.url);
    expect(goneRows.map((r) => [r.status, r.http_status, r.gave_up_at !== null])).toEqual([
      ["firing", 410, true],
      ["resolved", 410, true],
    ]);
    expect(gone.received.length).toBe(2);
  });

  it("keeps notifications while the receiver is down, across a server restart, and delivers each once it is back", async () => {
    await hook.down();
    await ingestCalls(20, 0);
    // The firing notification is written and its first attempt fails with a refused connection.
    const failedAttempt = async () =>
      current.store.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM alert_attempts a JOIN alert_outbox o ON o.id = a.outbox_id JOIN alert_receivers r ON r.id = o.receiver_id WHERE r.url = ? AND a.http_status IS NULL",
        [hook.url],
      );
    for (let deadline = Date.now() + 30_000; Number((await failedAttempt())?.n ?? 0) === 0; ) {
      if (Date.now() > deadline) throw new Error("no failed attempt recorded");
      await new Promise((r) => setTimeout(r, 25));
    }
    first.kill();
    // The next node on the same database: the same SQLite file, or the same PostgreSQL database.
    current = await startServer({ env: ENV, ...(dialect === "sqlite" ? { sqliteDir: dir } : { sharedDatabaseUrl: first.dbPath }) });
    await hook.up();
    const all = await hook.waitFor(3);
    expect(payload(all[2]!)).toMatchObject({ status: "firing", value: "67.6% of 34 calls failed in 60 min" });
    // Every attempt is kept: the refused ones with their error, the last with the receiver's 200
    // (recorded just after the receiver answered, so wait for it).
    const id = Number(all[2]!.headers["x-faultline-notification-id"]);
    const attemptsOf = () => current.store.all<{ http_status: number | null; error: string | null }>("SELECT http_status, error FROM alert_attempts WHERE outbox_id = ? ORDER BY id", [id]);
    let attempts = await attemptsOf();
    for (let deadline = Date.now() + 10_000; attempts.at(-1)?.http_status !== 200; attempts = await attemptsOf()) {
      if (Date.now() > deadline) throw new Error(`delivery not recorded: ${JSON.stringify(attempts)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts.slice(0, -1).every((a) => a.http_status === null && a.error === "ECONNREFUSED")).toBe(true);
    expect(attempts.at(-1)).toEqual({ http_status: 200, error: null });
    // The history answers the same: the notification, delivered, with every attempt and its status.
    const history = alertHistorySchema.parse(await (await fetch(`${current.url}/api/v1/alerts/history`)).json());
    const row = history.notifications.find((n) => n.id === id)!;
    expect([row.ruleName, row.receiver, row.status, row.delivery, row.link]).toEqual(["lookup failing", "ops", "firing", "delivered", "http://faultline.test/tools/lookup"]);
    expect(row.attempts.map((a) => a.httpStatus ?? a.error)).toEqual(attempts.map((a) => a.http_status ?? a.error));
    // Delivered once: the same notification never arrives twice.
    const ids = all.map((h) => h.headers["x-faultline-notification-id"]);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
