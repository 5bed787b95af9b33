import { expect } from "vitest";
import { ingestRecordSchema, type IngestRecord } from "../../../lib/contracts";
import {
  MemorySink,
  ToolRunner,
  VirtualTime,
  seededRandom,
  sequentialIds,
  type ToolDefinition,
  type ToolRunnerOptions,
} from "../../../lib/runtime";

/** A start time the wire schema accepts (not in the future, after 2000). */
export const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

/** A runner on virtual time with a memory sink and deterministic ids/jitter. */
export function harness(tools: ToolDefinition[], options: Partial<ToolRunnerOptions> = {}) {
  const time = new VirtualTime(T0);
  const sink = new MemorySink();
  const runner = new ToolRunner({
    agent: "support-agent",
    tools,
    sink,
    clock: time,
    scheduler: time,
    random: seededRandom(7),
    ids: sequentialIds(),
    retry: { maxAttempts: 3, baseDelayMs: 100 },
    ...options,
  });
  return { time, sink, runner };
}

/** Every record must pass the wire schema the server uses. */
export function expectValidRecords(records: readonly IngestRecord[]): void {
  for (const r of records) {
    const parsed = ingestRecordSchema.safeParse(r);
    expect(parsed.success, JSON.stringify({ r, issues: parsed.success ? null : parsed.error.issues })).toBe(true);
  }
}

/** A tool whose body is scripted attempt by attempt: each entry is thrown (Error) or returned. */
export function scripted(name: string, script: unknown[], extra: Partial<ToolDefinition> = {}): ToolDefinition & { calls: number } {
  const tool = {
    name,
    calls: 0,
    ...extra,
    execute() {
      const step = script[Math.min(tool.calls, script.length - 1)];
      tool.calls++;
      if (step instanceof Error) throw step;
      return step;
    },
  };
  return tool;
}
