import { attrString } from "../attributes";
import type { OtlpSpan } from "../decode";
import type { ToolConvention } from "./convention";
import { FAULTLINE_FIXES } from "./shared-fixes";

/** Langfuse's observation type attribute: `tool`, `agent`, `generation`, `span`… */
export const LANGFUSE_TYPE = "langfuse.observation.type";

const isTool = (s: OtlpSpan) => attrString(s.attributes, LANGFUSE_TYPE) === "tool";

/**
 * Langfuse tool observations (`startObservation(name, …, { asType: "tool" })`, `observe`): the tool
 * is the observation's name (the span name). A failure is level `ERROR` (its text in
 * `langfuse.observation.status_message`) or span status Error; the arguments are
 * `langfuse.observation.input` (hashed, never stored). Langfuse has no call id and no code.
 */
export const langfuseConvention: ToolConvention = {
  name: "langfuse",
  recognises: isTool,
  read: (s) => {
    if (!isTool(s)) return {};
    const failed = attrString(s.attributes, "langfuse.observation.level") === "ERROR";
    return {
      tool: s.name === "" ? null : s.name,
      outcome: failed ? "failed" : null,
      message: failed ? attrString(s.attributes, "langfuse.observation.status_message") : null,
    };
  },
  fixes: {
    tool: "the observation's name",
    callId: "gen_ai.tool.call.id",
    message: "langfuse.observation.status_message (statusMessage)",
    ...FAULTLINE_FIXES,
    release: "langfuse.release",
  },
  setOn: "on the tool observation's span: observation.otelSpan.setAttribute(…)",
  fixWhere: {
    message: 'the tool observation: observation.update({ level: "ERROR", statusMessage })',
    release: "the span processor: new LangfuseSpanProcessor({ release })",
  },
};
