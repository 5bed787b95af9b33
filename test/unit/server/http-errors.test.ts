import { afterEach, describe, expect, it, vi } from "vitest";
import { isClientAbort, toErrorResponse } from "@/server/http/api-error";
import { otherMethods } from "@/server/http/route";

afterEach(() => vi.restoreAllMocks());

describe("a client that disconnects mid-request", () => {
  const aborts: [string, unknown][] = [
    ["Node's socket abort", Object.assign(new Error("aborted"), { code: "ECONNRESET" })],
    ["undici's terminated body", new TypeError("terminated")],
    ["an AbortError", new DOMException("This operation was aborted", "AbortError")],
    ["a premature close as the cause", new Error("read failed", { cause: Object.assign(new Error("closed"), { code: "ERR_STREAM_PREMATURE_CLOSE" }) })],
  ];
  it.each(aborts)("is recognised and not logged: %s", async (_name, error) => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(isClientAbort(error)).toBe(true);
    const res = toErrorResponse(error);
    expect([res.status, await res.json()]).toEqual([400, { error: { code: "bad_request", message: "the client closed the request before it was read" } }]);
    expect(log).not.toHaveBeenCalled();
  });

  it("an unknown error is still logged and answered 500 without its message", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const error = new Error("secret internals");
    expect(isClientAbort(error)).toBe(false);
    const res = toErrorResponse(error);
    expect([res.status, await res.json()]).toEqual([500, { error: { code: "internal", message: "internal error" } }]);
    expect(log).toHaveBeenCalledWith("[faultline] unexpected error", error);
  });
});

describe("otherMethods", () => {
  it("answers 405 in the envelope with Allow, and OPTIONS 204 with the same Allow", async () => {
    const handlers = otherMethods("GET");
    const res = handlers.PUT(new Request("http://x/api/v1/tools", { method: "PUT" }));
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await res.json()).toEqual({ error: { code: "method_not_allowed", message: "PUT is not supported here; use GET" } });
    const options = handlers.OPTIONS(new Request("http://x/api/v1/tools", { method: "OPTIONS" }));
    expect([options.status, options.headers.get("allow")]).toEqual([204, "GET, HEAD, OPTIONS"]);
  });
});
