/**
 * The demo's simulated model: what an LLM agent does after a tool error, decided from what it was
 * told — the told text itself, not the code behind it — so that a message that says how to fix a
 * call gets fixed far more often than one that does not, as with a real model.
 */
import type { ToolCallRequest, ToolCallResult } from "../lib/runtime";

/** The demo's seeded randomness, shared so a seed reproduces the whole run. */
export interface Dice {
  chance(p: number): boolean;
  pick<T>(xs: readonly T[]): T;
  between(lo: number, hi: number): number;
}

type Reaction = "fix" | "repeat" | "replace" | "give_up";

/** How likely the model is to fix, repeat or replace after an error, by what the error said. */
function decide(d: Dice, result: Exclude<ToolCallResult, { status: "ok" | "cancelled" }>): { reaction: Reaction; replaceWith?: string } {
  const told = result.told;
  const code = result.error.code;
  switch (code) {
    case "invalid_arguments":
      // A message naming the expected format is acted on; "invalid" alone mostly gets the same call again.
      if (/YYYY-MM-DD|integer from 1 to 9/.test(told)) return { reaction: d.chance(0.9) ? "fix" : "repeat" };
      return { reaction: d.chance(0.1) ? "fix" : d.chance(0.7) ? "repeat" : "give_up" };
    case "upstream_rejected":
      if (told.includes("pick another fare class")) return { reaction: d.chance(0.8) ? "fix" : "give_up" };
      return { reaction: d.chance(0.15) ? "fix" : d.chance(0.5) ? "repeat" : "give_up" };
    case "booking_not_cancellable":
      // A refusal with its reason: the model explains it to the user, now and then it insists.
      return { reaction: d.chance(0.85) ? "give_up" : "repeat" };
    case "tool_not_found":
      return d.chance(0.9) ? { reaction: "replace", replaceWith: "search_flights" } : { reaction: "give_up" };
    case "tool_not_permitted":
      return d.chance(0.8) ? { reaction: "replace", replaceWith: "lookup_customer" } : { reaction: "give_up" };
    case "rate_limited":
    case "upstream_unavailable":
    case "supplier_unavailable":
    case "circuit_open":
    case "inventory_locked":
      // "retryable: yes" invites the same call again later; "no" mostly stops it.
      return { reaction: told.includes("retryable: yes") ? (d.chance(0.7) ? "repeat" : "give_up") : d.chance(0.3) ? "repeat" : "give_up" };
    case "tool_timed_out":
      return { reaction: d.chance(0.5) ? "repeat" : "give_up" };
    default:
      return { reaction: "give_up" };
  }
}

/** Arguments the model corrects: a valid booking request in a fare class still sold. */
function fixed(d: Dice, request: ToolCallRequest): unknown {
  if (request.tool !== "book_flight") return request.args;
  return { passengers: d.between(1, 4), date: "2027-03-14", fare_class: d.pick(["Y", "M"]) };
}

/** The simulated model of the demo. */
export function createModel(d: Dice) {
  // How many times the model already answered an error in a chain of calls (by call id): a model
  // that failed twice at the same thing tends to stop and explain instead.
  const tries = new Map<string, number>();
  return {
    /**
     * The model's next calls after one result: none after a success, else what it decides from the
     * told text — the same call again, a corrected one, another tool, or nothing (it explains, and
     * `gaveUp` hears of the tool). Each follow-up names the error it answers (`afterError`), as an
     * agent that tracks its turns can.
     */
    react(result: ToolCallResult, request: ToolCallRequest, newCallId: () => string, gaveUp: (tool: string) => void): ToolCallRequest[] {
      if (result.status === "ok" || result.status === "cancelled") return [];
      const before = tries.get(result.callId) ?? 0;
      tries.delete(result.callId);
      const { reaction, replaceWith } = before > 0 && d.chance(0.6) ? { reaction: "give_up" as const, replaceWith: undefined } : decide(d, result);
      const answer = { callId: newCallId(), afterError: result.callId };
      tries.set(answer.callId, before + 1);
      switch (reaction) {
        case "fix":
          return [{ ...answer, tool: request.tool, args: fixed(d, request) }];
        case "repeat":
          return [{ ...answer, tool: request.tool, args: request.args }];
        case "replace":
          return [{ ...answer, tool: replaceWith!, args: request.args }];
        case "give_up":
          gaveUp(request.tool);
          return [];
      }
    },
  };
}
