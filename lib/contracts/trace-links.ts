import { z } from "zod";

/**
 * A project's link out to the tracing tool that holds the same OpenTelemetry traces (docs/trace-links.md).
 * An admin picks a preset and fills in where the tool lives, or writes a custom URL template with
 * `{trace_id}` and optionally `{span_id}`; run and attempt pages then offer "Open in <tool>".
 */
export const TRACE_LINK_PRESETS = ["langfuse", "phoenix", "jaeger", "tempo", "custom"] as const;
export type TraceLinkPreset = (typeof TRACE_LINK_PRESETS)[number];

/** The tool's name on the "Open in …" link, per preset (custom links carry their own). */
export const PRESET_TOOL_NAMES: Record<Exclude<TraceLinkPreset, "custom">, string> = {
  langfuse: "Langfuse",
  phoenix: "Phoenix",
  jaeger: "Jaeger",
  tempo: "Grafana Tempo",
};

const PLACEHOLDER = /\{([^{}]*)\}/g;
const KNOWN = new Set(["trace_id", "span_id"]);
const TEMPLATE_MAX = 2000;

const httpUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "http:" || u.protocol === "https:") && u.username === "" && u.password === "";
    } catch {
      return false;
    }
  }, "must be an http:// or https:// address without a user name or password")
  .transform((v) => v.replace(/\/+$/, ""));

const toolId = (what: string) => z.string().trim().min(1, `${what} is required`).max(200);

/** Why a URL template is refused, or null when it is a valid one. */
export function templateProblem(template: string): string | null {
  const names = [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
  const unknown = names.find((n) => !KNOWN.has(n));
  if (unknown !== undefined) return `{${unknown}} is not a placeholder: use {trace_id} and {span_id}`;
  if (!names.includes("trace_id")) return "must contain {trace_id}";
  if (/[{}]/.test(template.replace(PLACEHOLDER, ""))) return "has an unpaired { or }";
  try {
    const u = new URL(template.replaceAll("{trace_id}", "0").replaceAll("{span_id}", "0"));
    if (u.protocol !== "http:" && u.protocol !== "https:") return "must start with http:// or https://";
    if (u.username !== "" || u.password !== "") return "must not carry a user name or password";
  } catch {
    return "is not a URL";
  }
  return null;
}

/** What the admin sends (`PUT /api/v1/projects/:project/trace-link`): a preset with where the tool lives, or a template. */
export const traceLinkInputSchema = z.discriminatedUnion("preset", [
  z.object({ preset: z.literal("langfuse"), baseUrl: httpUrl, projectId: toolId("the Langfuse project id") }),
  z.object({ preset: z.literal("phoenix"), baseUrl: httpUrl, projectId: toolId("the Phoenix project id") }),
  z.object({ preset: z.literal("jaeger"), baseUrl: httpUrl }),
  z.object({ preset: z.literal("tempo"), baseUrl: httpUrl, datasourceUid: toolId("the Tempo data source uid") }),
  z.object({
    preset: z.literal("custom"),
    name: z.string().trim().min(1, "name the tool").max(40),
    template: z
      .string()
      .trim()
      .max(TEMPLATE_MAX)
      .superRefine((t, ctx) => {
        const problem = templateProblem(t);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
  }),
]);
export type TraceLinkInput = z.infer<typeof traceLinkInputSchema>;

/** The project's link as stored and read: its settings, the template they make, the tool's name. */
export const traceLinkSchema = z.object({
  settings: traceLinkInputSchema,
  template: z.string(),
  toolName: z.string(),
  updatedAt: z.number(),
});
export type TraceLink = z.infer<typeof traceLinkSchema>;

/** `GET /api/v1/projects/:project/trace-link`: null when no link is set. */
export const traceLinkAnswerSchema = z.object({ project: z.string(), link: traceLinkSchema.nullable() });
export type TraceLinkAnswer = z.infer<typeof traceLinkAnswerSchema>;

const enc = encodeURIComponent;

/** The URL template a preset's settings make (a custom one is its own template). */
export function traceLinkTemplate(input: TraceLinkInput): string {
  switch (input.preset) {
    case "langfuse":
      return `${input.baseUrl}/project/${enc(input.projectId)}/traces/{trace_id}?observation={span_id}`;
    case "phoenix":
      return `${input.baseUrl}/projects/${enc(input.projectId)}/traces/{trace_id}`;
    case "jaeger":
      return `${input.baseUrl}/trace/{trace_id}?uiFind={span_id}`;
    case "tempo": {
      // Grafana's Explore state is JSON in the URL; the trace id goes in as a TraceQL query by id.
      const pane = { datasource: input.datasourceUid, queries: [{ refId: "A", datasource: { type: "tempo", uid: input.datasourceUid }, queryType: "traceql", query: "TRACE_ID" }], range: { from: "now-30d", to: "now" } };
      return `${input.baseUrl}/explore?schemaVersion=1&panes=${enc(JSON.stringify({ trace: pane })).replace("TRACE_ID", "{trace_id}")}`;
    }
    case "custom":
      return input.template;
  }
}

/** The tool's name for "Open in …". */
export const traceLinkToolName = (input: TraceLinkInput): string => (input.preset === "custom" ? input.name : PRESET_TOOL_NAMES[input.preset]);

/**
 * The URL of one trace (and span) from a template: the ids URL-encoded; without a span id, a query
 * parameter that only held `{span_id}` is left out and any other `{span_id}` becomes empty.
 */
export function traceLinkUrl(template: string, ids: { traceId: string; spanId: string | null }): string {
  let t = template;
  if (ids.spanId === null) t = t.replace(/([?&])[^?&=#]*=\{span_id\}(&|(?=#)|$)/g, (_, lead: string, tail: string) => (tail === "&" ? lead : "")).replaceAll("{span_id}", "");
  return t.replaceAll("{trace_id}", enc(ids.traceId)).replaceAll("{span_id}", enc(ids.spanId ?? ""));
}
