import type { AttrMap, AttrValue } from "./attributes";
import { attrString } from "./attributes";
import { nanosToMs, type OtlpSpan } from "./decode";

// What a model was sent back after a tool call, as each convention records it on the model call
// that followed (docs/otlp.md, "What the model was told"). Only tool results are read; nothing else
// of a prompt is kept, and only the text of a result matched to a failed tool call is ever stored.

/** One tool result in a model call's input: the text the model read for one tool call. */
export interface ToolResultMessage {
  traceId: string;
  /** The tool call id the result answers, when the convention carries it. */
  callId: string | null;
  /** The tool's name, when the convention carries it next to the result or on the call it answers. */
  tool: string | null;
  text: string;
  /** When the model call that read it started: the moment the model was told. */
  at: number;
  /** The model call's span id, so one result is matched once. */
  spanId: string;
  /**
   * The model call answered it by calling the same call id again (a source reusing ids across turns):
   * the call went on, so a result it read is not known to be the call's last.
   */
  reissued: boolean;
}

/** A structured value as the text the model read: strings as they are, anything else as JSON. */
export function resultText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "string") return v.trim() === "" ? null : v;
  try {
    return JSON.stringify(v, (_k, x: unknown) => (x instanceof Map ? Object.fromEntries(x) : x));
  } catch {
    return null;
  }
}

const record = (v: unknown): Record<string, unknown> | null => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

function parseJsonArray(v: AttrValue | undefined): unknown[] | null {
  if (typeof v !== "string") return Array.isArray(v) ? v : null;
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

type Found = Omit<ToolResultMessage, "traceId" | "at" | "spanId" | "reissued">;

const VERCEL_ERROR_MARKS = ['"error-text"', '"error-json"', '"isError":true'];

/**
 * Vercel AI SDK: `ai.prompt.messages` (JSON) on `ai.generateText.doGenerate` / `ai.streamText.doStream`.
 * A `tool` message holds `tool-result` parts with `toolCallId` and `toolName`; a tool that threw is sent
 * as `output: {type: "error-text" | "error-json", value}` (AI SDK 5 and later) or, in AI SDK 4,
 * `result` with `isError: true`; only those are read (the SDK says which results are errors).
 */
function vercelResults(a: AttrMap): Found[] {
  const raw = a.get("ai.prompt.messages");
  // Only a tool that threw is told here, and the SDK marks it: most prompts need no parsing.
  if (typeof raw === "string" && !VERCEL_ERROR_MARKS.some((m) => raw.includes(m))) return [];
  const messages = parseJsonArray(raw);
  if (!messages) return [];
  const out: Found[] = [];
  for (const m of messages) {
    const msg = record(m);
    if (!msg || msg.role !== "tool" || !Array.isArray(msg.content)) continue;
    for (const p of msg.content) {
      const part = record(p);
      if (!part || part.type !== "tool-result") continue;
      const output = record(part.output);
      const failed = output ? output.type === "error-text" || output.type === "error-json" : part.isError === true;
      if (!failed) continue;
      const text = output ? resultText(output.value) : resultText(part.result);
      if (text !== null) out.push({ callId: str(part.toolCallId), tool: str(part.toolName), text });
    }
  }
  return out;
}

/**
 * OpenTelemetry GenAI: `gen_ai.input.messages` (JSON) on the chat span: a `tool` message's parts of
 * type `tool_call_response` with `id` and `response`; the tool's name from the `tool_call` part of the
 * same id in an earlier assistant message.
 */
function genAiResults(a: AttrMap): Found[] {
  const messages = parseJsonArray(a.get("gen_ai.input.messages"));
  if (!messages) return [];
  const names = new Map<string, string>();
  const out: Found[] = [];
  for (const m of messages) {
    const msg = record(m);
    if (!msg || !Array.isArray(msg.parts)) continue;
    for (const p of msg.parts) {
      const part = record(p);
      if (!part) continue;
      const id = str(part.id);
      if (part.type === "tool_call" && id && str(part.name)) names.set(id, str(part.name)!);
      if (part.type !== "tool_call_response" || msg.role !== "tool") continue;
      const text = resultText(part.response);
      if (text !== null) out.push({ callId: id, tool: (id && names.get(id)) ?? null, text });
    }
  }
  return out;
}

/**
 * Flattened message lists, one attribute per field: OpenInference `llm.input_messages.N.message.*`
 * (role, content, tool_call_id; the assistant's `tool_calls.K.tool_call.id` / `.function.name`) and
 * OpenLLMetry's `gen_ai.prompt.N.*` (role, content, tool_call_id; `tool_calls.K.id` / `.name`).
 */
function flattenedResults(a: AttrMap, prefix: string, field: (f: string) => string, call: { id: string; name: string }): Found[] {
  const names = new Map<string, string>();
  const out: Found[] = [];
  for (let i = 0; a.has(`${prefix}.${i}.${field("role")}`); i++) {
    const at = (f: string) => a.get(`${prefix}.${i}.${f}`);
    for (let k = 0; a.has(`${prefix}.${i}.${field(`tool_calls.${k}.${call.id}`)}`); k++) {
      const id = str(at(field(`tool_calls.${k}.${call.id}`)));
      const name = str(at(field(`tool_calls.${k}.${call.name}`)));
      if (id && name) names.set(id, name);
    }
    if (at(field("role")) !== "tool") continue;
    const id = str(at(field("tool_call_id")));
    const text = resultText(at(field("content")) ?? at(field("contents.0.message_content.text")));
    if (text !== null) out.push({ callId: id, tool: (id && names.get(id)) ?? str(at(field("name"))), text });
  }
  return out;
}

/**
 * The call ids of the tool calls a model call answered with, where the convention records its output:
 * Vercel `ai.response.toolCalls` (JSON), GenAI `gen_ai.output.messages` (`tool_call` parts),
 * OpenInference `llm.output_messages.N.message.tool_calls.K.tool_call.id`, OpenLLMetry
 * `gen_ai.completion.N.tool_calls.K.id`.
 */
function outputCallIds(a: AttrMap): Set<string> {
  const ids = new Set<string>();
  for (const c of parseJsonArray(a.get("ai.response.toolCalls")) ?? []) {
    const id = str(record(c)?.toolCallId);
    if (id) ids.add(id);
  }
  for (const m of parseJsonArray(a.get("gen_ai.output.messages")) ?? []) {
    const parts = record(m)?.parts;
    for (const p of Array.isArray(parts) ? parts : []) if (record(p)?.type === "tool_call" && str(record(p)?.id)) ids.add(str(record(p)?.id)!);
  }
  const flattened = [
    { message: (i: number) => `llm.output_messages.${i}.message`, id: (m: string, k: number) => `${m}.tool_calls.${k}.tool_call.id` },
    { message: (i: number) => `gen_ai.completion.${i}`, id: (m: string, k: number) => `${m}.tool_calls.${k}.id` },
  ];
  for (const f of flattened) {
    for (let i = 0; a.has(`${f.message(i)}.role`); i++) {
      for (let k = 0, id = str(a.get(f.id(f.message(i), 0))); id; id = str(a.get(f.id(f.message(i), ++k)))) ids.add(id);
    }
  }
  return ids;
}

/** Every tool result in the input of one model call, whichever convention recorded it. */
export function toolResultsOf(s: OtlpSpan): ToolResultMessage[] {
  const a = s.attributes;
  const found: Found[] = [];
  if (a.has("ai.prompt.messages")) found.push(...vercelResults(a));
  if (a.has("gen_ai.input.messages")) found.push(...genAiResults(a));
  if (a.has("llm.input_messages.0.message.role") && (attrString(a, "openinference.span.kind") ?? "LLM").toUpperCase() === "LLM") {
    found.push(...flattenedResults(a, "llm.input_messages", (f) => `message.${f}`, { id: "tool_call.id", name: "tool_call.function.name" }));
  }
  if (a.has("gen_ai.prompt.0.role")) found.push(...flattenedResults(a, "gen_ai.prompt", (f) => f, { id: "id", name: "name" }));
  if (found.length === 0) return [];
  const at = nanosToMs(s.startNs);
  const again = outputCallIds(a);
  return found.map((f) => ({ ...f, traceId: s.traceId, at, spanId: s.spanId, reissued: f.callId !== null && again.has(f.callId) }));
}
