/** Builders for hand-made OTLP/JSON requests. */
export type Attr = { key: string; value: Record<string, unknown> };

export const s = (key: string, v: string): Attr => ({ key, value: { stringValue: v } });
export const i = (key: string, v: string | number): Attr => ({ key, value: { intValue: v } });
export const b = (key: string, v: boolean): Attr => ({ key, value: { boolValue: v } });

export const T0 = 1767225600000; // 2026-01-01T00:00:00Z
export const ns = (ms: number) => `${ms}000000`;

export function span(overrides: Record<string, unknown> = {}) {
  return {
    traceId: "5b8efff798038103d269b633813fc60c",
    spanId: "eee19b7ec3c1b174",
    parentSpanId: "eee19b7ec3c1b173",
    name: "execute_tool get_weather",
    kind: 1,
    startTimeUnixNano: ns(T0),
    endTimeUnixNano: ns(T0 + 1250),
    attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "get_weather")],
    ...overrides,
  };
}

export function request(spans: unknown[], resource: Attr[] = [s("service.name", "support-agent"), s("service.version", "2026.11.3")]) {
  return { resourceSpans: [{ resource: { attributes: resource }, scopeSpans: [{ scope: { name: "my.agent.runtime", version: "1.4.0" }, spans }] }] };
}
