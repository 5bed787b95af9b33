import { describe, expect, it } from "vitest";
import type { WordingSetAnswer } from "../../../lib/contracts/wordings";
import { RemoteWordings, VirtualTime, type WordingFetch } from "../../../lib/runtime";
import { T0 } from "./helpers";

const answer = (text: string): WordingSetAnswer => ({
  project: "p",
  entries: [{ code: "fare_class_unavailable", tool: null, experiment: "fare", state: "promoted", variants: [{ id: "b", text, weight: 100 }] }],
});

/** A scripted Faultline: each request takes the next reply; `etag` answers 304 when it matches. */
function server(replies: (() => { status: number; body?: unknown; etag?: string } | Promise<never>)[]) {
  const seen: Record<string, string>[] = [];
  let i = 0;
  const fetch: WordingFetch = async (_url, init) => {
    seen.push(init.headers);
    const reply = await replies[Math.min(i++, replies.length - 1)]!();
    return { status: reply.status, headers: { get: (n: string) => (n === "etag" ? (reply.etag ?? null) : null) }, text: async () => JSON.stringify(reply.body ?? null) };
  };
  return { fetch, seen };
}

const textOf = (w: RemoteWordings) => w.current()?.entryFor("fare_class_unavailable", "t")?.variants[0]?.text;

describe("RemoteWordings", () => {
  it("fetches once per TTL, revalidates with If-None-Match, and picks up a change after the TTL", async () => {
    const time = new VirtualTime(T0);
    const s = server([() => ({ status: 200, body: answer("one"), etag: '"v1"' }), () => ({ status: 304 }), () => ({ status: 200, body: answer("two"), etag: '"v2"' })]);
    const w = new RemoteWordings({ baseUrl: "http://f/", project: "p", apiKey: "k", ttlMs: 30_000, clock: time, scheduler: time, fetch: s.fetch });
    expect(w.current()).toBeUndefined();
    await w.refresh();
    expect(textOf(w)).toBe("one");
    time.advance(29_999);
    expect(textOf(w)).toBe("one");
    expect(s.seen).toHaveLength(1);
    time.advance(1);
    w.current();
    await w.refresh();
    expect(s.seen[1]).toMatchObject({ "if-none-match": '"v1"', authorization: "Bearer k" });
    expect(textOf(w)).toBe("one");
    time.advance(30_000);
    w.current();
    await w.refresh();
    expect(textOf(w)).toBe("two");
    expect(s.seen).toHaveLength(3);
  });

  it("keeps the last set while Faultline is unreachable, then gives way to the local map after maxStaleMs; never throws", async () => {
    const time = new VirtualTime(T0);
    const errors: unknown[] = [];
    const s = server([() => ({ status: 200, body: answer("one") }), () => Promise.reject(new TypeError("fetch failed"))]);
    const w = new RemoteWordings({ baseUrl: "http://f", project: "p", apiKey: "k", ttlMs: 10_000, maxStaleMs: 50_000, clock: time, scheduler: time, fetch: s.fetch, onError: (e) => errors.push(e) });
    await w.refresh();
    for (let t = 0; t < 5; t++) {
      time.advance(10_000);
      expect(textOf(w)).toBe("one");
      await w.refresh();
    }
    time.advance(1);
    expect(w.current()).toBeUndefined();
    expect(errors.length).toBeGreaterThan(0);
    expect(String(errors[0])).toContain("fetch failed");
  });

  it("keeps the previous set when an answer is malformed or refused, and reports why", async () => {
    const time = new VirtualTime(T0);
    const errors: string[] = [];
    const s = server([() => ({ status: 200, body: answer("one") }), () => ({ status: 200, body: { project: "p", entries: [{ code: "" }] } }), () => ({ status: 403, body: {} })]);
    const w = new RemoteWordings({ baseUrl: "http://f", project: "p", apiKey: "k", ttlMs: 1_000, clock: time, scheduler: time, fetch: s.fetch, onError: (e) => errors.push(String(e)) });
    await w.refresh();
    time.advance(1_000);
    await w.refresh();
    time.advance(1_000);
    await w.refresh();
    expect(textOf(w)).toBe("one");
    expect(errors).toEqual([expect.stringContaining("not a wording set: entries.0.code"), expect.stringContaining("answered 403")]);
  });

  it("gives up on a request that does not answer within timeoutMs", async () => {
    const time = new VirtualTime(T0);
    const errors: string[] = [];
    const fetch: WordingFetch = (_u, init) => new Promise((_r, reject) => init.signal.addEventListener("abort", () => reject(init.signal.reason)));
    const w = new RemoteWordings({ baseUrl: "http://f", project: "p", apiKey: "k", timeoutMs: 2_000, clock: time, scheduler: time, fetch, onError: (e) => errors.push(String(e)) });
    const pending = w.refresh();
    time.advance(2_000);
    await pending;
    expect(errors).toEqual(["Error: no answer within 2000 ms"]);
    expect(w.current()).toBeUndefined();
  });
});
