import { ARGS_HASH_PATTERN, argsHash, argsHashOfText } from "@/lib/contracts/args-hash";
import type { AttrMap } from "./attributes";
import { id, reject } from "./strict-attributes";

/** Where conventions put a tool call's arguments, most specific first: GenAI, the Vercel AI SDK, OpenInference, Langfuse. */
const ARGUMENT_ATTRIBUTES = ["gen_ai.tool.call.arguments", "ai.toolCall.args", "input.value", "langfuse.observation.input"] as const;

/**
 * The call's arguments hash: the runtime's own `faultline.args_hash`, else the hash of the arguments
 * a convention carries (JSON text or a structured value, lib/contracts/args-hash.ts). Only the hash
 * leaves this function: the arguments are never stored.
 */
export function readArgsHash(a: AttrMap): string | null {
  if (a.has("faultline.args_hash")) {
    const v = a.get("faultline.args_hash");
    if (typeof v !== "string" || !ARGS_HASH_PATTERN.test(v)) reject("faultline.args_hash must be 8 to 64 lowercase hex characters", "invalid_attribute", "faultline.args_hash");
    return v as string;
  }
  for (const key of ARGUMENT_ATTRIBUTES) {
    if (!a.has(key)) continue;
    const v = a.get(key);
    if (v === null || v === undefined) continue;
    return typeof v === "string" ? argsHashOfText(v) : argsHash(v);
  }
  return null;
}

/**
 * The call id of the surfaced error this call answers (`faultline.after_error`), when the runtime
 * linked it; an empty value says the runtime knows it answers none (stored as ''); null when absent.
 */
export const readAfterError = (a: AttrMap): string | null => (a.get("faultline.after_error") === "" ? "" : id(a, "faultline.after_error"));
