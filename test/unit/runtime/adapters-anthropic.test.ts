import { describe, expect, it } from "vitest";
import { UNNAMED_TOOL, anthropicToolResults, requestsFromAnthropic, type AnthropicToolUse } from "../../../lib/runtime";
import { expectValidRecords, harness } from "./helpers";

// An assistant message's `content` as the Messages API documents it: thinking and text beside
// client tool_use blocks, plus a server tool (web search) the API ran itself.
const content = [
  { type: "thinking", thinking: "The user wants the weather in two cities.", signature: "EqQBCgIYAhIM" },
  { type: "text", text: "Let me check both." },
  { type: "tool_use", id: "toolu_01A09q90qw90lq917835lq9", name: "get_weather", input: { location: "San Francisco, CA" } },
  { type: "server_tool_use", id: "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE", name: "web_search", input: { query: "weather" } },
  { type: "web_search_tool_result", tool_use_id: "srvtoolu_01WYG3ziw53XMcoyKL4XcZmE", content: [] },
  { type: "tool_use", id: "toolu_02", name: "get_weather", input: { location: "Oslo" } },
];

const weather = { name: "get_weather", execute: (args: unknown) => ({ location: (args as { location: string }).location, tempC: 12 }) };

describe("requestsFromAnthropic", () => {
  it("reads only the client tool_use blocks, in order, with id, name and input", () => {
    expect(requestsFromAnthropic(content)).toEqual([
      { callId: "toolu_01A09q90qw90lq917835lq9", tool: "get_weather", args: { location: "San Francisco, CA" } },
      { callId: "toolu_02", tool: "get_weather", args: { location: "Oslo" } },
    ]);
  });

  it("a message without tool_use blocks gives no requests", () => {
    expect(requestsFromAnthropic([{ type: "text", text: "It is sunny." }])).toEqual([]);
    expect(requestsFromAnthropic([])).toEqual([]);
  });

  it("a block without input runs with {} (tools without parameters); an untyped block counts as tool_use", () => {
    expect(requestsFromAnthropic([{ type: "tool_use", id: "toolu_a", name: "now" }, { id: "toolu_b", name: "now", input: { tz: "UTC" } }])).toEqual([
      { callId: "toolu_a", tool: "now", args: {} },
      { callId: "toolu_b", tool: "now", args: { tz: "UTC" } },
    ]);
  });

  it("a block without an id gets a generated call id rather than an empty one", async () => {
    const [request] = requestsFromAnthropic([{ type: "tool_use", name: "get_weather", input: { location: "Oslo" } }]);
    expect(request).toEqual({ tool: "get_weather", args: { location: "Oslo" } });
    const { runner } = harness([weather]);
    // harness ids are sequential: run_1, trace_2, then the call's own.
    expect(await runner.startRun().call(request!)).toMatchObject({ status: "ok", callId: "call_3", value: { location: "Oslo", tempC: 12 } });
  });

  it("a tool_use with a blank name resolves to a not-found result the model can read", async () => {
    const { runner, sink } = harness([weather]);
    const [r] = await runner.startRun().callAll(requestsFromAnthropic([{ type: "tool_use", id: "toolu_x", name: "  ", input: {} }]));
    expect(r).toMatchObject({ status: "error", callId: "toolu_x", tool: UNNAMED_TOOL, attempts: 1, decision: "surfaced" });
    expect(r!.status === "error" && r!.error.code).toBe("tool_not_found");
    expectValidRecords(sink.records);
  });

  it("round trip: every tool_use of the turn gets exactly one tool_result with its id, in order", async () => {
    const { runner, sink } = harness([weather]);
    const run = runner.startRun();
    const results = await run.callAll(requestsFromAnthropic(content));
    const toolUses = content.filter((b) => b.type === "tool_use") as AnthropicToolUse[];
    expect(anthropicToolResults(toolUses, results)).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_01A09q90qw90lq917835lq9",
        content: '<untrusted-data source="tool_result">\n{"location":"San Francisco, CA","tempC":12}\n</untrusted-data>',
      },
      { type: "tool_result", tool_use_id: "toolu_02", content: '<untrusted-data source="tool_result">\n{"location":"Oslo","tempC":12}\n</untrusted-data>' },
    ]);
    expect(sink.ofType("tool_call_span").map((s) => [s.call_id, s.outcome])).toEqual([
      ["toolu_01A09q90qw90lq917835lq9", "ok"],
      ["toolu_02", "ok"],
    ]);
    expectValidRecords(sink.records);
  });
});
