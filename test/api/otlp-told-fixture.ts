import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import { classificationProgressSchema } from "@/lib/contracts/classification";
import { codesSchema } from "@/lib/contracts/codes";
import { driftFindingsResponseSchema } from "@/lib/contracts/drift";
import { gateResponseSchema } from "@/lib/contracts/gate";
import { toldAnswerSchema } from "@/lib/contracts/told";
import type { ProjectServer } from "../helpers/project";

// Shared by the OTLP "what the model was told" tests: a local HTTP server standing in for a tool's
// upstream or a model provider, and the reads every scenario checks through the real server.

/** A local HTTP server answering each request with `answer`; `close` when done. */
export async function localServer(answer: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => answer(req, Buffer.concat(chunks).toString("utf8"), res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Sends a JSON answer. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Reads over the project's own API. */
export function reads(server: ProjectServer, readKey?: string) {
  const get = async (path: string) => {
    const res = await fetch(server.at(path));
    expect(res.status).toBe(200);
    return (await res.json()) as unknown;
  };
  return {
    /** Code, attempts and classes of every code with calls, by code. */
    async codes() {
      const { codes } = codesSchema.parse(await get("/api/v1/codes?range=7d&sort=code&dir=asc"));
      return codes.map((c) => ({ code: c.code, attempts: c.attempts, errorClasses: c.errorClasses, told: c.told && { surfaced: c.told.surfaced, decided: c.told.decided, recovered: c.told.recovered } }));
    },
    /** The self-correction of errors told for a filter: steps that occurred and the rates. */
    async told(qs: string) {
      const t = toldAnswerSchema.parse(await get(`/api/v1/told?${qs}`));
      return {
        steps: Object.fromEntries(t.steps.filter((s) => s.errors > 0).map((s) => [s.step, s.errors])),
        surfaced: t.rates.surfaced, decided: t.rates.decided, recovered: t.rates.recovered,
        selfCorrection: t.rates.selfCorrection, repeatRate: t.rates.repeatRate,
        releases: t.releases.map((r) => ({ release: r.release, decided: r.rates.decided, selfCorrection: r.rates.selfCorrection })),
        wordings: t.wordings.map((w) => ({ shape: w.shape, surfaced: w.rates.surfaced, selfCorrection: w.rates.selfCorrection })),
      };
    },
    async drift() {
      await server.driftFolded();
      return driftFindingsResponseSchema.parse(await get("/api/v1/drift")).findings.map((f) => ({ kind: f.kind, tool: f.tool, code: f.code, from: f.fromRelease, to: f.toRelease }));
    },
    /** The gate's verdict on a release, read with `readKey` (the gate wants a read key). */
    async gate(release: string) {
      const res = await fetch(server.at(`/api/v1/gate?release=${release}`), { headers: { authorization: `Bearer ${readKey}` } });
      expect(res.status).toBe(200);
      const g = gateResponseSchema.parse(await res.json());
      return { verdict: g.verdict, violations: g.violations.map((f) => [f.kind, f.code]), otherFindings: g.otherFindings.map((f) => [f.kind, f.code]), newCodes: g.newCodes, removedCodes: g.removedCodes };
    },
    /** Creates a classification rule through the API and waits until history is re-classified. */
    async createRule(rule: { name: string; match: Record<string, unknown>; set: Record<string, unknown> }) {
      const res = await fetch(`${server.url}/api/v1/classification/rules`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ project: server.project, ...rule }) });
      expect(res.status).toBe(201);
      for (;;) {
        const p = classificationProgressSchema.parse(await get("/api/v1/classification/progress"));
        if (p.upToDate && p.appliedRevision === p.revision) return { changed: p.changed, examined: p.examined };
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    /** What the model was told per stored final error, in time order. */
    toldErrors: () =>
      server.store.all<{ tool: string; code: string | null; decision: string; told: string; step: string | null }>(
        `SELECT e.tool, e.code, e.decision, e.told, t.step FROM tool_errors e LEFT JOIN told_steps t ON t.project_id = e.project_id AND t.event_id = e.event_id
         WHERE e.project_id = ? ORDER BY e.occurred_at, e.event_id`,
        [server.project],
      ),
  };
}
