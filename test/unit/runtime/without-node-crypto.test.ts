// The runtime is published for any platform: where there is no `process` (a browser, an edge
// runtime), it hashes arguments with its own SHA-256. This bundles lib/runtime as the package does
// (platform neutral) and runs a call in a V8 context that has no `process`, `require` or Buffer.
import { build } from "esbuild";
import path from "node:path";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { argsHash } from "@/lib/contracts/args-hash";
import type { IngestRecord } from "@/lib/contracts";
import type * as Runtime from "@/lib/runtime";

async function bundle(): Promise<string> {
  const out = await build({
    entryPoints: [path.resolve(__dirname, "../../../lib/runtime/index.ts")],
    bundle: true,
    write: false,
    platform: "neutral",
    mainFields: ["module", "main"],
    format: "iife",
    globalName: "FaultlineRuntime",
    target: "es2022",
    logLevel: "silent",
  });
  return out.outputFiles[0]!.text;
}

describe("the runtime without node:crypto", () => {
  it("records the same args_hash from its portable SHA-256 as Node's native digest gives", async () => {
    const code = await bundle();
    // What a browser offers: Web Crypto (random ids) but no synchronous digest.
    const sandbox = { crypto: globalThis.crypto, TextEncoder, AbortController, AbortSignal, DOMException, EventTarget, Event, setTimeout, clearTimeout, queueMicrotask, console };
    const context = vm.createContext(sandbox);
    vm.runInContext(code, context);
    expect(vm.runInContext("typeof process", context)).toBe("undefined");
    const runtime = (context as unknown as { FaultlineRuntime: typeof Runtime }).FaultlineRuntime;
    const records: IngestRecord[] = [];
    const runner = new runtime.ToolRunner({ agent: "edge-agent", sink: { record: (r) => void records.push(r) }, tools: [{ name: "search", execute: () => ({ hits: 3 }) }] });
    const run = runner.startRun();
    const args = { q: "Zürich 🚀", limit: 5, nested: { b: [1, 2], a: null } };
    const result = await run.call({ tool: "search", callId: "c1", args });
    run.end();
    expect(result.status).toBe("ok");
    const span = records.find((r) => r.type === "tool_call_span");
    expect(span && "args_hash" in span ? span.args_hash : undefined).toBe(argsHash(args));
  });
});
