import type { ToolCallRequest, ToolCallResult } from "../loop/results";
import { missingResultText, modelText } from "./content";
import { answerTurn, decodeArguments } from "./turn";

/** A Responses API `function_call` output item (structural; no SDK needed). */
export interface OpenAIFunctionCall {
  type: "function_call";
  /** The id the answer must repeat. */
  call_id: string;
  name: string;
  /** JSON text. */
  arguments: string;
  /** The item's own id (`fc_…`); not what the answer refers to. */
  id?: string;
}

/** A Responses API `function_call_output` input item. */
export interface OpenAIFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/** Any item of a response's `output` array; only `function_call` items are read. */
export type OpenAIResponseItem = { type: string } & Record<string, unknown>;

const isFunctionCall = (item: OpenAIResponseItem | OpenAIFunctionCall): item is OpenAIFunctionCall => item.type === "function_call";

/**
 * One finished call as a `function_call_output` item with the same `call_id`. The Responses API
 * has no error flag, so the envelope's `source` tells the model what happened.
 */
export function toOpenAIFunctionCallOutput(result: ToolCallResult): OpenAIFunctionCallOutput {
  return { type: "function_call_output", call_id: result.callId, output: modelText(result) };
}

/**
 * The `function_call_output` items answering every `function_call` of a response's `output`
 * (other items such as messages and reasoning are skipped), in order, once per `call_id`. A call
 * without a result gets an error output; unknown and duplicate results are dropped.
 */
export function openAIFunctionCallOutputs(
  output: readonly (OpenAIResponseItem | OpenAIFunctionCall)[],
  results: readonly ToolCallResult[],
): OpenAIFunctionCallOutput[] {
  return answerTurn(output.filter(isFunctionCall), (c) => c.call_id, results).map(({ id, result }) =>
    result ? toOpenAIFunctionCallOutput(result) : { type: "function_call_output", call_id: id, output: missingResultText() },
  );
}

/** The run-loop requests for the `function_call` items of a response's `output`. */
export function requestsFromOpenAIResponse(output: readonly (OpenAIResponseItem | OpenAIFunctionCall)[]): ToolCallRequest[] {
  return output.filter(isFunctionCall).map((c) => ({ callId: c.call_id, tool: c.name, ...decodeArguments(c.arguments) }));
}
