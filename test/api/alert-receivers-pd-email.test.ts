// PagerDuty and email receivers end to end: a real server evaluates a failure-rate rule; a local
// HTTP server checks every Events API v2 event as PagerDuty would (refusing a malformed one), and a
// real SMTP server (smtp-server, with a password) receives the mail nodemailer sends. "Send a test"
// is checked against the same receivers.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { alertReceiverCreatedSchema, alertReceiverTestSchema, alertRuleSchema } from "@/lib/contracts/alerts";
import { ingestLookupCalls } from "../helpers/lookup-calls";
import { startServer, type TestServer } from "../helpers/server";

const ROUTING_KEY = "R0UT1NGKEY0123456789abcdefABCDEF";

interface PdEvent {
  routing_key: string;
  event_action: "trigger" | "resolve";
  dedup_key: string;
  payload?: { summary: string; source: string; severity: string; timestamp: string; component: string; group: string; class: string; custom_details: Record<string, unknown> };
  links?: { href: string; text: string }[];
}

/** What PagerDuty checks of an Events API v2 request; null when it would be accepted. */
function pdProblem(e: PdEvent): string | null {
  if (e.routing_key !== ROUTING_KEY) return "bad routing key";
  if (!["trigger", "resolve"].includes(e.event_action)) return "bad event_action";
  if (typeof e.dedup_key !== "string" || e.dedup_key.length === 0 || e.dedup_key.length > 255) return "bad dedup_key";
  if (e.event_action === "trigger") {
    const p = e.payload;
    if (!p || typeof p.summary !== "string" || p.summary.length > 1024 || !p.source) return "bad payload";
    if (!["critical", "error", "warning", "info"].includes(p.severity)) return "bad severity";
    if (Number.isNaN(Date.parse(p.timestamp))) return "bad timestamp";
  }
  return null;
}

/** A local stand-in for PagerDuty's Events API v2: 202 for a valid event, 400 with the problem otherwise. */
async function startPagerDuty(): Promise<{ url: string; events: PdEvent[]; close(): Promise<void> }> {
  const events: PdEvent[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let event: PdEvent;
      try {
        event = JSON.parse(Buffer.concat(chunks).toString("utf8")) as PdEvent;
      } catch {
        res.writeHead(400).end();
        return;
      }
      const problem = req.url !== "/v2/enqueue" || req.headers["content-type"] !== "application/json" ? "bad request line" : pdProblem(event);
      if (problem) {
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ status: "invalid event", message: problem }));
        return;
      }
      events.push(event);
      res.writeHead(202, { "content-type": "application/json" }).end(JSON.stringify({ status: "success", message: "Event processed", dedup_key: event.dedup_key }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/enqueue`, events, close: () => new Promise((r) => server.close(() => r())) };
}

interface Mail {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server that requires a password and keeps what it receives. */
async function startSmtp(): Promise<{ port: number; mails: Mail[]; close(): Promise<void> }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      if (auth.username === "alerts" && auth.password === "smtp-pass") callback(null, { user: "alerts" });
      else callback(new Error("invalid credentials"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, close: () => new Promise((r) => server.close(() => r())) };
}

/** An RFC 2047 header value decoded: encoded words (Q or B, UTF-8) joined, adjacent ones without the space between. */
function decodeHeader(value: string): string {
  const bytes = (word: string, enc: string) =>
    enc.toUpperCase() === "B"
      ? Buffer.from(word, "base64")
      : Buffer.from(word.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), "latin1");
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, word: string) => bytes(word, enc).toString("utf8"));
}

/** The text of a mail: headers unfolded and decoded, quoted-printable body decoded. */
function mailText(raw: string): { subject: string; body: string } {
  const [head, ...rest] = raw.split("\r\n\r\n");
  const subject = decodeHeader(/^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(head!)?.[1]?.replace(/\r\n([ \t])/g, "$1") ?? "");
  const body = rest
    .join("\r\n\r\n")
    .replace(/=\r\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return { subject, body: Buffer.from(body, "latin1").toString("utf8").replace(/\r\n/g, "\n") };
}

async function waitFor<T>(what: string, read: () => T[], n: number): Promise<T[]> {
  for (const deadline = Date.now() + 30_000; read().length < n; ) {
    if (Date.now() > deadline) throw new Error(`${what}: ${read().length} of ${n} arrived`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return read();
}

const dialect = inject("serverDialect");
let server: TestServer;
let pd: Awaited<ReturnType<typeof startPagerDuty>>;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let pdId: number;
let mailId: number;
let seq = 0;

const post = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

const ingestCalls = (failed: number, ok: number) => ingestLookupCalls(server, { failed, ok, seq: () => ++seq }, { service: "agent", release: "2.3.0", environment: "prod" });

beforeAll(async () => {
  pd = await startPagerDuty();
  smtp = await startSmtp();
  server = await startServer({
    dialect,
    env: {
      FAULTLINE_ALERT_INTERVAL_MS: "150",
      FAULTLINE_ALERT_RETRY_BASE_MS: "100",
      FAULTLINE_ALERT_ALLOW_PRIVATE: "1",
      FAULTLINE_PUBLIC_URL: "http://faultline.test",
      FAULTLINE_SMTP_URL: `smtp://alerts:smtp-pass@127.0.0.1:${smtp.port}`,
      FAULTLINE_SMTP_FROM: "faultline@alerts.test",
    },
  });
  const pdRes = await post("/api/v1/alerts/receivers", { project: "default", name: "on-call", format: "pagerduty", url: pd.url, routingKey: ROUTING_KEY });
  expect(pdRes.status).toBe(201);
  const pdReceiver = alertReceiverCreatedSchema.parse(await pdRes.json());
  expect([pdReceiver.format, pdReceiver.url, pdReceiver.secret]).toEqual(["pagerduty", pd.url, null]);
  pdId = pdReceiver.id;
  const mailRes = await post("/api/v1/alerts/receivers", { project: "default", name: "team mail", format: "email", to: ["oncall@example.com", "lead@example.com"] });
  expect(mailRes.status).toBe(201);
  const mailReceiver = alertReceiverCreatedSchema.parse(await mailRes.json());
  expect([mailReceiver.format, mailReceiver.url, mailReceiver.secret]).toEqual(["email", "mailto:oncall%40example.com,lead%40example.com", null]);
  mailId = mailReceiver.id;
  for (const receiverId of [pdId, mailId]) {
    const res = await post("/api/v1/alerts/rules", {
      project: "default",
      name: "lookup failing",
      params: { kind: "failure_rate", tool: "lookup", windowMinutes: 60, threshold: 0.5, minCalls: 4 },
      receiverId,
    });
    expect(alertRuleSchema.parse(await res.json()).receiverId).toBe(receiverId);
  }
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await pd?.close();
  await smtp?.close();
});

describe("PagerDuty and email receivers", () => {
  it("trigger and resolve one PagerDuty incident with one dedup key, and mail both to every recipient", async () => {
    await ingestCalls(3, 1);
    const [trigger] = await waitFor("PagerDuty trigger", () => pd.events, 1);
    expect(trigger!).toMatchObject({
      routing_key: ROUTING_KEY,
      event_action: "trigger",
      payload: {
        summary: "FIRING: lookup failing (lookup / upstream_timeout) — 75% of 4 calls failed in 60 min — issue open",
        source: "faultline/default",
        severity: "error",
        component: "lookup",
        group: "default",
        class: "failure_rate",
        custom_details: { threshold: "more than 50% of calls failed in 60 min (at least 4 calls)", code: "upstream_timeout", releases: ["2.3.0"], environments: ["prod"] },
      },
    });
    expect(trigger!.dedup_key).toMatch(/^faultline:default:\d+:[0-9a-f]{32}$/);
    expect(trigger!.links![0]).toEqual({ href: "http://faultline.test/tools/lookup", text: "Open in Faultline" });
    expect(trigger!.links!.slice(1).map((l) => l.href)).toEqual(Array.from({ length: 3 }, () => expect.stringMatching(/^http:\/\/faultline\.test\/runs\/r\d+$/)));

    const [fired] = await waitFor("firing mail", () => smtp.mails, 1);
    expect([fired!.from, fired!.to]).toEqual(["faultline@alerts.test", ["oncall@example.com", "lead@example.com"]]);
    const firedText = mailText(fired!.raw);
    expect(firedText.subject).toBe("FIRING: lookup failing (lookup / upstream_timeout) — 75% of 4 calls failed in 60 min — issue open");
    expect(firedText.body).toContain("Threshold: more than 50% of calls failed in 60 min (at least 4 calls)\n");
    expect(firedText.body).toContain("Release: 2.3.0\nEnvironment: prod\n");
    expect(firedText.body).toMatch(/\nRuns:\n {2}r\d+: http:\/\/faultline\.test\/runs\/r\d+\n/);
    expect(firedText.body).toContain("Open in Faultline: http://faultline.test/tools/lookup");

    await ingestCalls(0, 10);
    const events = await waitFor("PagerDuty resolve", () => pd.events, 2);
    expect(events[1]).toEqual({ routing_key: ROUTING_KEY, event_action: "resolve", dedup_key: trigger!.dedup_key });
    const mails = await waitFor("resolved mail", () => smtp.mails, 2);
    expect(mailText(mails[1]!.raw).subject).toMatch(/^RESOLVED: lookup failing \(lookup \/ upstream_timeout\) — resolved after \d+ s — issue open$/);
    expect(mailText(mails[1]!.raw).body).toMatch(/\nLasted: \d+ s\n/);
  });

  it("sends a test to each receiver on demand, and says when one does not take it", async () => {
    const before = pd.events.length;
    const mailsBefore = smtp.mails.length;
    const test = async (id: number) => {
      const res = await post(`/api/v1/alerts/receivers/${id}/test`, {});
      expect(res.status).toBe(200);
      return alertReceiverTestSchema.parse(await res.json());
    };
    expect(await test(pdId)).toMatchObject({ delivered: true, httpStatus: 202, error: null });
    // A test incident is triggered and resolved at once: nothing stays open.
    expect(pd.events.slice(before).map((e) => [e.event_action, e.payload?.component ?? null])).toEqual([["trigger", "faultline-test"], ["resolve", null]]);
    expect(pd.events[before]!.dedup_key).toBe(pd.events[before + 1]!.dedup_key);
    expect(await test(mailId)).toMatchObject({ delivered: true, httpStatus: null, error: null });
    const [mail] = smtp.mails.slice(mailsBefore);
    expect(mailText(mail!.raw).subject).toBe('FIRING: Test notification (faultline-test / test_notification) — a test sent to receiver "team mail" from Faultline');

    const wrongKey = await post("/api/v1/alerts/receivers", { project: "default", name: "bad key", format: "pagerduty", url: pd.url, routingKey: "not-the-key" });
    const bad = alertReceiverCreatedSchema.parse(await wrongKey.json());
    expect(await test(bad.id)).toMatchObject({ delivered: false, httpStatus: 400, error: null });
    const missing = await post("/api/v1/alerts/receivers/999999/test", {});
    expect(missing.status).toBe(404);
  });

  it("refuses a receiver without what its kind needs, naming the field", async () => {
    const pdNoKey = await post("/api/v1/alerts/receivers", { project: "default", name: "x", format: "pagerduty" });
    expect(pdNoKey.status).toBe(400);
    expect(((await pdNoKey.json()) as { error: { issues: { path: string; message: string }[] } }).error.issues).toEqual([
      { path: "routingKey", message: "the PagerDuty integration (routing) key is required" },
    ]);
    const badMail = await post("/api/v1/alerts/receivers", { project: "default", name: "x", format: "email", to: ["not an address"] });
    expect(badMail.status).toBe(400);
  });
});

describe("editing a receiver", () => {
  it("points a PagerDuty receiver at a new routing key and an email receiver at new recipients, refusing another kind's field", async () => {
    const patch = (id: number, body: unknown) => fetch(`${server.url}/api/v1/alerts/receivers/${id}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const created = alertReceiverCreatedSchema.parse(await (await post("/api/v1/alerts/receivers", { project: "default", name: "stale", format: "pagerduty", url: pd.url, routingKey: "old-key" })).json());
    const send = async () => alertReceiverTestSchema.parse(await (await post(`/api/v1/alerts/receivers/${created.id}/test`, {})).json());
    expect((await send()).httpStatus).toBe(400);
    const res = await patch(created.id, { name: "fixed", routingKey: ROUTING_KEY });
    expect([res.status, ((await res.json()) as { name: string }).name]).toEqual([200, "fixed"]);
    expect(await send()).toMatchObject({ delivered: true, httpStatus: 202 });

    const wrongField = await patch(created.id, { to: ["a@example.com"] });
    expect([wrongField.status, ((await wrongField.json()) as { error: { message: string } }).error.message]).toEqual([400, "invalid to: only email receivers have recipients"]);
    const mail = await patch(mailId, { to: ["new-oncall@example.com"] });
    expect(((await mail.json()) as { url: string }).url).toBe("mailto:new-oncall%40example.com");
    const before = smtp.mails.length;
    expect((await (await post(`/api/v1/alerts/receivers/${mailId}/test`, {})).json()) as { delivered: boolean }).toMatchObject({ delivered: true });
    expect(smtp.mails[before]!.to).toEqual(["new-oncall@example.com"]);
  });
});
