import { ToolNotFoundError } from "../errors/tool-not-found";

/**
 * Name recorded for a call whose tool name was missing, blank or not a string. It is a valid wire
 * name, so the not-found span and tool error still reach Faultline.
 */
export const UNNAMED_TOOL = "(unnamed tool)";

/** A {@link ToolCallRequest} read without trusting its shape: it came from a model. */
export interface ReadRequest {
  /** The tool name when it is a non-blank string. */
  tool: string | undefined;
  /** What the model sent as the name, for the error message. */
  rawTool: unknown;
  callId: string | undefined;
  args: unknown;
  argumentsError: string | undefined;
  /** The agent's link: a call id, `null` for "answers no error", undefined when it did not say. */
  afterError: string | null | undefined;
}

function field(request: unknown, key: string): unknown {
  if (typeof request !== "object" || request === null) return undefined;
  try {
    return (request as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** Reads a request defensively; never throws. */
export function readRequest(request: unknown): ReadRequest {
  const rawTool = field(request, "tool");
  const callId = field(request, "callId");
  const argumentsError = field(request, "argumentsError");
  const afterError = field(request, "afterError");
  return {
    tool: typeof rawTool === "string" && rawTool.trim() !== "" ? rawTool : undefined,
    rawTool,
    callId: typeof callId === "string" ? callId : undefined,
    args: field(request, "args"),
    argumentsError: typeof argumentsError === "string" ? argumentsError : undefined,
    afterError: typeof afterError === "string" && afterError !== "" ? afterError : afterError === null ? null : undefined,
  };
}

function describeName(raw: unknown): string {
  if (raw === undefined) return "no name";
  if (typeof raw === "string") return raw === "" ? "an empty name" : "a blank name";
  return `a ${raw === null ? "null" : typeof raw} instead of a name`;
}

/** The not-found error for a call whose tool name is unusable. */
export function unnamedTool(raw: unknown): ToolNotFoundError {
  return new ToolNotFoundError(UNNAMED_TOOL, { message: `the call named no tool (it sent ${describeName(raw)})` });
}
