import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { LangfuseSpanProcessor } from "@langfuse/otel";
import { setLangfuseTracerProvider, startActiveObservation, startObservation } from "@langfuse/tracing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bytesToHex } from "@/db/schema/hex-bytes";
import type { ConformanceEmitter } from "@/lib/contracts/conformance";
import type { RunListItem } from "@/lib/contracts/runs";
import type { ToolRow } from "@/lib/contracts/tools";
import { SPANS } from "../helpers/spans-read";
import { openProject, type ProjectServer } from "../helpers/project";

// Langfuse's own JS SDK and span processor, pointed at Faultline by its base URL alone: the processor
// posts to `<base>/api/public/otel/v1/traces` with Basic `publicKey:secretKey`, the secret key being
// the Faultline ingest key.

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  setLangfuseTracerProvider(null);
  await server?.stop();
});

const T = Math.floor((Date.now() - 600_000) / 1000) * 1000;

interface Stored {
  tool: string; call_id: string; attempt: number; outcome: string; code: string | null; error_class: string | null; message: string | null;
  derived: string | null; release: string | null; environment: string | null; service: string | null; args_hash: string | null;
}

describe("Langfuse tool observations through Langfuse's own span processor", () => {
  it("stores tool observations as attempts and the agent observation as the run, under Langfuse's OTLP path", async () => {
    const processor = new LangfuseSpanProcessor({
      baseUrl: server.url,
      publicKey: "pk-lf-faultline",
      secretKey: server.key,
      release: "7.1.0",
      environment: "staging",
    });
    const provider = new BasicTracerProvider({ resource: resourceFromAttributes({ "service.name": "langfuse-app" }), spanProcessors: [processor] });
    setLangfuseTracerProvider(provider);

    const agent = startObservation("support-agent", { input: { question: "Where is A-1?" } }, { asType: "agent", startTime: new Date(T) });
    // 1: the tool reports its failure on the observation (level ERROR, status message).
    const parentSpanContext = agent.otelSpan.spanContext();
    const first = startObservation("lookup_order", { input: { id: "A-1" } }, { asType: "tool", parentSpanContext, startTime: new Date(T + 1000) });
    first.update({ level: "ERROR", statusMessage: "orders service unavailable" });
    first.end(new Date(T + 1100));
    // 2: the tool throws inside an active observation (Langfuse sets status Error with the message).
    await expect(
      startActiveObservation(
        "lookup_order",
        async (tool) => {
          tool.update({ input: { id: "A-1" } });
          throw new Error("orders service timed out");
        },
        { asType: "tool", parentSpanContext, startTime: new Date(T + 2000) },
      ),
    ).rejects.toThrow("orders service timed out");
    // 3: success, with a WARNING level that is not a failure.
    const third = startObservation("lookup_order", { input: { id: "A-1" } }, { asType: "tool", parentSpanContext, startTime: new Date(T + 3000) });
    third.update({ output: { status: "shipping" }, level: "WARNING" });
    third.end(new Date(T + 3100));
    agent.update({ output: "A-1 ships Monday." });
    agent.end(new Date(T + 4000));
    await provider.forceFlush();
    await provider.shutdown();

    // The hash is stored as its bytes (db/schema/hex-bytes.ts).
    const rows = (
      await server.store.all<Omit<Stored, "args_hash"> & { args_hash: Buffer | null }>(
        `SELECT tool, call_id, attempt, outcome, code, error_class, message, derived, release, environment, service, args_hash
         FROM ${SPANS} WHERE project_id = ? ORDER BY started_at`,
        [server.project],
      )
    ).map((r): Stored => ({ ...r, args_hash: r.args_hash && bytesToHex(r.args_hash) }));
    const callId = `lookup_order@${agent.id}`;
    const same = { tool: "lookup_order", call_id: callId, code: null, derived: "run_id,call_id,attempt", release: "7.1.0", environment: "staging", service: "support-agent" };
    const hash = rows[0]?.args_hash ?? "";
    expect(hash).toMatch(/^[0-9a-f]{8,64}$/);
    expect(rows).toEqual([
      // No code sent: the built-in classification pack names the failures by their text (docs/classification.md).
      { ...same, attempt: 1, outcome: "failed", code: "upstream_unavailable", error_class: "ToolFailure", message: "orders service unavailable", args_hash: hash },
      { ...same, attempt: 2, outcome: "failed", code: "upstream_timeout", error_class: "ToolFailure", message: "orders service timed out", args_hash: hash },
      { ...same, attempt: 3, outcome: "ok", error_class: null, message: null, args_hash: hash },
    ]);

    const tools = (await (await fetch(server.at("/api/v1/tools?tool=lookup_order"))).json()) as { tools: ToolRow[] };
    const row = tools.tools.find((t) => t.tool === "lookup_order")!;
    expect([row.attempts, row.calls, row.callsNotOk, row.failures, row.maxAttempts]).toEqual([3, 1, 0, 2, 3]);

    const runs = (await (await fetch(server.at("/api/v1/runs?limit=10"))).json()) as { runs: RunListItem[] };
    expect(runs.runs.map((r) => [r.runId, r.agent, r.state, r.startedAt, r.endedAt, r.toolCalls, r.attempts, r.retries, r.failedAttempts])).toEqual([
      [agent.traceId, "support-agent", "completed", T, T + 4000, 1, 3, 2, 2],
    ]);

    const conformance = (await (await fetch(server.at("/api/v1/conformance"))).json()) as { emitters: ConformanceEmitter[] };
    expect(conformance.emitters.map((e) => [e.service, e.convention, e.spans, e.drops.length])).toEqual([["langfuse-app", "langfuse", 3, 0]]);
  });

  it("takes the ingest key as the Basic password, never the user name", async () => {
    const post = (credentials: string) =>
      fetch(`${server.url}/api/public/otel/v1/traces`, {
        method: "POST",
        headers: { authorization: `Basic ${Buffer.from(credentials).toString("base64")}`, "content-type": "application/json" },
        body: JSON.stringify({ resourceSpans: [] }),
      });
    // (A wrong key would count towards the shared server's per-address throttle; a missing one does not.)
    const good = await post(`pk-lf-x:${server.key}`);
    const keyAsUser = await post(server.key);
    // OTLP answers errors as a google.rpc.Status.
    expect([good.status, await good.json(), keyAsUser.status, await keyAsUser.json()]).toEqual([
      200, {}, 401, { code: 16, message: "missing ingest key: send Authorization: Bearer <key>", details: [] },
    ]);
  });
});
