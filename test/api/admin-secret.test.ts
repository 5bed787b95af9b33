import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ dialect: inject("serverDialect"), env: { FAULTLINE_ADMIN_SECRET: "s3cret-admin-s3cret" } });
});
afterAll(async () => {
  await server?.stop();
});

const basic = (password: string) => `Basic ${Buffer.from(`admin:${password}`).toString("base64")}`;

describe("with FAULTLINE_ADMIN_SECRET set", () => {
  it("asks for the secret on the dashboard", async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="faultline", charset="UTF-8"');
    expect(await res.json()).toEqual({ error: { code: "unauthorized", message: "this Faultline requires the admin secret" } });
    expect((await fetch(`${server.url}/`, { headers: { authorization: basic("wrong") } })).status).toBe(401);
  });

  it("serves the dashboard with the secret", async () => {
    const res = await fetch(`${server.url}/`, { headers: { authorization: basic("s3cret-admin-s3cret") } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'self'");
  });

  it("leaves ingest to project keys and health open", async () => {
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    const res = await fetch(`${server.url}/api/v1/ingest`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ records: [{ type: "run", id: "r", run_id: "r", agent: "a", started_at: Date.now() - 1000, state: "running" }] }),
    });
    expect(res.status).toBe(200);
  });
});
