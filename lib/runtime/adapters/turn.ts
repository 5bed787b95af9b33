import type { ToolCallRequest, ToolCallResult } from "../loop/results";

/** One call of a model turn paired with its result (`undefined` when none was produced). */
export interface TurnAnswer<C> {
  readonly call: C;
  readonly id: string;
  readonly result: ToolCallResult | undefined;
}

/**
 * Pairs every call of one turn with its result, in the turn's order, once per id. Providers reject
 * a turn whose answers miss a call or carry an extra one, so results for ids the turn did not
 * contain are dropped, duplicates keep the first, and a call without a result gets `undefined`
 * (the adapter answers it with an error).
 */
export function answerTurn<C>(calls: readonly C[], idOf: (call: C) => string, results: readonly ToolCallResult[]): TurnAnswer<C>[] {
  const byId = new Map<string, ToolCallResult>();
  for (const r of results) if (!byId.has(r.callId)) byId.set(r.callId, r);
  const seen = new Set<string>();
  const answers: TurnAnswer<C>[] = [];
  for (const call of calls) {
    const id = idOf(call);
    if (seen.has(id)) continue;
    seen.add(id);
    answers.push({ call, id, result: byId.get(id) });
  }
  return answers;
}

/**
 * Decodes provider arguments sent as JSON text (OpenAI). An empty string is no arguments; text
 * that is not JSON becomes an `argumentsError`, so the call is answered with a repairable
 * argument error instead of running with garbage.
 */
export function decodeArguments(text: unknown): Pick<ToolCallRequest, "args" | "argumentsError"> {
  if (typeof text !== "string") return text === undefined ? { args: {} } : { args: text };
  if (text.trim() === "") return { args: {} };
  try {
    return { args: JSON.parse(text) as unknown };
  } catch {
    return { args: undefined, argumentsError: "the arguments are not valid JSON" };
  }
}
