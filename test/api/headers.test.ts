import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openProject, type ProjectServer } from "../helpers/project";

// Security headers on every kind of response: a dashboard page (nonce CSP from proxy.ts), a read
// API answer and its error, an ingest answer, the CI gate, health and a static asset (next.config.js headers).
let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

const COMMON = { "x-content-type-options": "nosniff", "referrer-policy": "no-referrer", "x-frame-options": "DENY" };
const STATIC_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function directives(csp: string | null): Map<string, string> {
  return new Map((csp ?? "").split(";").map((d) => d.trim()).filter(Boolean).map((d) => [d.split(" ")[0]!, d.slice(d.indexOf(" ") + 1)] as [string, string]));
}

function expectCommon(res: Response) {
  for (const [name, value] of Object.entries(COMMON)) expect(res.headers.get(name), name).toBe(value);
}

describe("security headers", () => {
  it("a page: one CSP with a fresh nonce for scripts, no 'unsafe-inline' for scripts, the nonce on every script tag", async () => {
    const [a, b] = await Promise.all([fetch(`${server.url}/tools`), fetch(`${server.url}/tools`)]);
    expect(a.status).toBe(200);
    expectCommon(a);
    // One policy only: the static one from next.config.js must have been replaced, not combined.
    expect(a.headers.get("content-security-policy")!.match(/default-src/g)).toEqual(["default-src"]);
    const csp = directives(a.headers.get("content-security-policy"));
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp.get("script-src") ?? "")?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(csp.get("script-src")).toBe(`'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(csp.get("style-src")).toBe(`'self' 'nonce-${nonce}'`);
    expect(csp.get("style-src-attr")).toBe("'unsafe-inline'");
    expect(csp.get("frame-ancestors")).toBe("'none'");
    expect(csp.get("object-src")).toBe("'none'");
    expect(a.headers.get("content-security-policy")).not.toContain("unsafe-eval");
    const otherNonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(b.headers.get("content-security-policy") ?? "")?.[1];
    expect(otherNonce).not.toBe(nonce);
    const html = await a.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    await b.text();
  });

  it("a read API answer and a read API error", async () => {
    const ok = await fetch(`${server.url}/api/v1/tools`);
    expect(ok.status).toBe(200);
    expectCommon(ok);
    expect(directives(ok.headers.get("content-security-policy")).get("frame-ancestors")).toBe("'none'");
    expect(ok.headers.get("content-security-policy")!.match(/default-src/g)).toEqual(["default-src"]);
    const bad = await fetch(`${server.url}/api/v1/tools?range=abc`);
    expect(bad.status).toBe(400);
    expectCommon(bad);
    expect(directives(bad.headers.get("content-security-policy")).get("frame-ancestors")).toBe("'none'");
  });

  it("an ingest answer, an ingest error, the CI gate, health and a static asset carry the static policy", async () => {
    const ingest = await fetch(`${server.url}/api/v1/ingest`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ records: [{ type: "run", id: "h-1", run_id: "h-1", agent: "a", started_at: Date.now() - 1000, state: "completed" }] }),
    });
    const unauthorized = await fetch(`${server.url}/api/v1/ingest`, { method: "POST", body: "{}" });
    const health = await fetch(`${server.url}/api/health`);
    const icon = await fetch(`${server.url}/icon.png`);
    const gate = await fetch(server.at("/api/v1/gate?release=1.0.0"));
    const contract = await fetch(server.at("/api/v1/codes/contract?release=1.0.0"));
    expect([ingest.status, unauthorized.status, health.status, icon.status, gate.status, contract.status]).toEqual([200, 401, 200, 200, 200, 404]);
    for (const res of [ingest, unauthorized, health, icon, gate, contract]) {
      expectCommon(res);
      expect(res.headers.get("content-security-policy")).toBe(STATIC_CSP);
    }
  });
});
