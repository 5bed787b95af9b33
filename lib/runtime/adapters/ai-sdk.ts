import type { RunSession } from "../loop/run-session";
import type { ToolCallResult } from "../loop/results";
import type { ToolContext, ToolDefinition } from "../loop/tool-definition";
import { modelText } from "./content";

/** The options the Vercel AI SDK passes to a tool's `execute` (the fields this module reads). */
export interface AiSdkExecutionOptions {
  /** The model's id for this call; becomes the loop's call id. */
  toolCallId: string;
  /** The SDK call's signal; cancels this tool call (see {@link fromAiSdkTools}). */
  abortSignal?: AbortSignal | undefined;
  /** The conversation so far, handed to the original `execute` unchanged. */
  messages?: unknown[];
  /** The SDK's `experimental_context`, handed to the original `execute` unchanged. */
  experimental_context?: unknown;
}

/**
 * The part of a Vercel AI SDK `tool()` this module reads and replaces (structural; the runtime
 * does not depend on `ai`). A method, so the SDK's `Tool<INPUT, OUTPUT>` fits.
 */
export interface AiSdkToolLike {
  execute?(input: never, options: AiSdkExecutionOptions): unknown;
}

/** Run-loop settings for one wrapped tool: everything a {@link ToolDefinition} has except its body. */
export type AiSdkToolSettings = Omit<ToolDefinition, "name" | "execute">;

/**
 * Thrown by a wrapped tool's `execute` when the call did not return a value, so the AI SDK records
 * a `tool-error`. Its message is exactly the enveloped text the model should read (the SDK sends
 * an error's message to the model); `result` is the loop's full result. The AI SDK has no
 * non-error channel other than the tool's typed output, so a refusal travels this way too, as a
 * `tool_refusal` envelope that reads as an answer.
 */
export class AiSdkToolCallError extends Error {
  override readonly name = "AiSdkToolCallError";

  constructor(
    /** How the call ended. */
    readonly result: Exclude<ToolCallResult, { status: "ok" }>,
  ) {
    super(modelText(result));
  }
}

/** AI SDK tools made to run through the loop: definitions for the runner, and tools for one run. */
export interface AiSdkTools<T> {
  /** One definition per tool, for `new ToolRunner({ tools })`. */
  readonly definitions: ToolDefinition[];
  /**
   * The same tools with `execute` routed through `run`: retries, timeouts, breakers, typed errors
   * and records apply, and the AI SDK's `toolCallId` becomes the call id. Pass the result to
   * `generateText({ tools })` / `streamText`. Tools without `execute` are returned unchanged.
   */
  bind(run: RunSession): T;
}

// A streaming tool yields preliminary outputs; the last one is its result, as in the AI SDK.
async function finalValue(value: unknown): Promise<unknown> {
  if (typeof value === "object" && value !== null && Symbol.asyncIterator in value) {
    let last: unknown;
    for await (const item of value as AsyncIterable<unknown>) last = item;
    return last;
  }
  return value;
}

/**
 * Wraps the `tool()` definitions an agent already has so that their `execute` runs through the run
 * loop and their failures become typed, recorded results. `settings` adds loop settings per tool
 * (`idempotent`, `timeoutMs`, `breaker`, `errorMap`, `retry`, `validate`, `checkResult`, `version`).
 * The SDK's per-call `abortSignal` cancels that call: the attempt in flight is aborted (the
 * original `execute` sees it on its own `abortSignal`), a pending backoff is cut short, and the call
 * is recorded `cancelled` while the run goes on. To end the run as well, pass the same signal to
 * `startRun({ signal })`.
 */
export function fromAiSdkTools<T extends Record<string, AiSdkToolLike>>(
  tools: T,
  settings: { readonly [K in keyof T]?: AiSdkToolSettings } = {},
): AiSdkTools<T> {
  // The SDK's per-call options (messages, context) travel beside the loop, keyed by run and call.
  const pending = new Map<string, AiSdkExecutionOptions>();
  const key = (runId: string, callId: string) => `${runId}\u0000${callId}`;
  const definitions: ToolDefinition[] = [];
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute;
    if (typeof execute !== "function") continue;
    definitions.push({
      ...settings[name],
      name,
      execute: async (args: unknown, ctx: ToolContext) => {
        const given = pending.get(key(ctx.runId, ctx.callId));
        // ctx.signal, not the SDK's: it also fires on the tool's timeout, the run's deadline and
        // cancellation, and it is linked to the SDK's abortSignal by bind().
        const options: AiSdkExecutionOptions = { messages: [], ...given, toolCallId: ctx.callId, abortSignal: ctx.signal };
        return finalValue(await (execute as (input: unknown, o: AiSdkExecutionOptions) => unknown).call(tool, args, options));
      },
    });
  }
  return {
    definitions,
    bind(run: RunSession): T {
      const bound: Record<string, AiSdkToolLike> = {};
      for (const [name, tool] of Object.entries(tools)) {
        if (typeof tool.execute !== "function") {
          bound[name] = tool;
          continue;
        }
        bound[name] = {
          ...tool,
          execute: async (input: unknown, options: AiSdkExecutionOptions) => {
            const k = key(run.runId, options.toolCallId);
            pending.set(k, options);
            let result: ToolCallResult;
            try {
              // Linked per call: aborting generateText must stop the attempt, not just stop waiting for it.
              result = await run.call({ callId: options.toolCallId, tool: name, args: input }, { signal: options.abortSignal });
            } finally {
              pending.delete(k);
            }
            if (result.status === "ok") return result.value;
            throw new AiSdkToolCallError(result);
          },
        };
      }
      return bound as T;
    },
  };
}
