import { describe, expect, it } from "vitest";
import { templateProblem, traceLinkInputSchema, traceLinkTemplate, traceLinkUrl } from "@/lib/contracts/trace-links";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN = "00f067aa0ba902b7";
const urls = (input: unknown) => {
  const template = traceLinkTemplate(traceLinkInputSchema.parse(input));
  return { span: traceLinkUrl(template, { traceId: TRACE, spanId: SPAN }), run: traceLinkUrl(template, { traceId: TRACE, spanId: null }) };
};

describe("trace link presets", () => {
  it("Langfuse opens the trace with the observation selected", () => {
    expect(urls({ preset: "langfuse", baseUrl: "https://cloud.langfuse.com/", projectId: "clx1 abc" })).toEqual({
      span: `https://cloud.langfuse.com/project/clx1%20abc/traces/${TRACE}?observation=${SPAN}`,
      run: `https://cloud.langfuse.com/project/clx1%20abc/traces/${TRACE}`,
    });
  });
  it("Phoenix opens the trace in its project", () => {
    expect(urls({ preset: "phoenix", baseUrl: "http://localhost:6006", projectId: "UHJvamVjdDox" })).toEqual({
      span: `http://localhost:6006/projects/UHJvamVjdDox/traces/${TRACE}`,
      run: `http://localhost:6006/projects/UHJvamVjdDox/traces/${TRACE}`,
    });
  });
  it("Jaeger finds the span in the trace", () => {
    expect(urls({ preset: "jaeger", baseUrl: "https://jaeger.example.com/jaeger" })).toEqual({
      span: `https://jaeger.example.com/jaeger/trace/${TRACE}?uiFind=${SPAN}`,
      run: `https://jaeger.example.com/jaeger/trace/${TRACE}`,
    });
  });
  it("Grafana Tempo opens Explore with a TraceQL query by trace id", () => {
    const { span, run } = urls({ preset: "tempo", baseUrl: "https://grafana.example.com", datasourceUid: "tempo-1" });
    expect(span).toBe(run);
    expect(span).toBe(
      "https://grafana.example.com/explore?schemaVersion=1&panes=" +
        encodeURIComponent(JSON.stringify({ trace: { datasource: "tempo-1", queries: [{ refId: "A", datasource: { type: "tempo", uid: "tempo-1" }, queryType: "traceql", query: TRACE }], range: { from: "now-30d", to: "now" } } })),
    );
  });
  it("a custom template fills both placeholders, URL-encoded, and drops an empty span parameter", () => {
    expect(urls({ preset: "custom", name: "Honeycomb", template: "https://ui.example.com/t/{trace_id}?span={span_id}&env=prod" })).toEqual({
      span: `https://ui.example.com/t/${TRACE}?span=${SPAN}&env=prod`,
      run: `https://ui.example.com/t/${TRACE}?env=prod`,
    });
    expect(traceLinkUrl("https://x.example/{trace_id}/{span_id}", { traceId: "a/b?c", spanId: "d e" })).toBe("https://x.example/a%2Fb%3Fc/d%20e");
  });
});

describe("trace link validation", () => {
  it.each([
    ["https://x.example/trace", "must contain {trace_id}"],
    ["https://x.example/{trace}", "{trace} is not a placeholder: use {trace_id} and {span_id}"],
    ["javascript:alert(1)//{trace_id}", "must start with http:// or https://"],
    ["https://u:p@x.example/{trace_id}", "must not carry a user name or password"],
    ["https://x.example/{trace_id}}", "has an unpaired { or }"],
    ["x.example/{trace_id}", "is not a URL"],
  ])("%s: %s", (template, problem) => {
    expect(templateProblem(template)).toBe(problem);
    const parsed = traceLinkInputSchema.safeParse({ preset: "custom", name: "X", template });
    expect(parsed.success ? null : parsed.error.issues.map((i) => i.message)).toEqual([problem]);
  });
  it("refuses a preset whose address is not http(s)", () => {
    const parsed = traceLinkInputSchema.safeParse({ preset: "jaeger", baseUrl: "ftp://jaeger.example.com" });
    expect(parsed.success ? null : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual(["baseUrl: must be an http:// or https:// address without a user name or password"]);
  });
});
