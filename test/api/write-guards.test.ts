// Every write route on disk refuses a signed-in browser's request that lacks its session's CSRF
// token, carries a wrong one, or comes from another site, before anything else is looked at, and
// writes nothing. The routes come from the route files (scripts/lint/write-routes.mjs): a write
// added later is checked here without a new row.
import { describe, expect, it } from "vitest";
import { checkWriteRoutes } from "@/scripts/lint/write-routes.mjs";
import { json, useTeam } from "./team-fixture";

const team = useTeam();
const mutations = checkWriteRoutes(process.cwd()).writes.filter((w) => w.kind === "mutation");

/** The route's path with its segments filled in: all real where that matters to nobody (the checks come first). */
function pathOf(route: string): string {
  const t = team();
  const values: Record<string, string> = { project: t.project, id: "1", token: "a".repeat(43), prefix: "flk_abcdefgh", userId: t.accounts.viewer.userId };
  return route.replace(/\[(\w+)\]/g, (_, name: string) => values[name] ?? "x");
}

const send = (method: string, route: string, headers: Record<string, string>) =>
  fetch(`${team().server.url}${pathOf(route)}`, json(method, headers, method === "DELETE" ? undefined : {}));

const countAll = async () => Number((await team().server.store.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM audit_log"))!.n);

describe("the CSRF and same-origin checks of every write", () => {
  it("covers the write routes on disk", () => {
    // Sanity: the enumeration found the writes (the unit test lists them one by one).
    expect(mutations.length).toBe(18);
  });

  it.each(mutations.map((w) => [`${w.method} ${w.route}`, w] as const))("%s", async (_name, w) => {
    const t = team();
    const before = await countAll();
    const missing = await send(w.method, w.route, t.headersOf("owner", { csrf: false }));
    expect([missing.status, await missing.json()]).toEqual([
      403,
      { error: { code: "forbidden", message: "missing x-faultline-csrf header: a signed-in browser sends the value of its faultline_csrf cookie with every change" } },
    ]);
    const wrong = await send(w.method, w.route, { ...t.headersOf("owner", { csrf: false }), "x-faultline-csrf": "not-the-token" });
    expect([wrong.status, await wrong.json()]).toEqual([403, { error: { code: "forbidden", message: "wrong x-faultline-csrf header: it must equal the faultline_csrf cookie of this session" } }]);
    const crossSite = await send(w.method, w.route, { ...t.headersOf("owner"), origin: "http://evil.example" });
    expect([crossSite.status, await crossSite.json()]).toEqual([403, { error: { code: "forbidden", message: "requests from http://evil.example may not change anything here" } }]);
    expect(await countAll()).toBe(before);
    // The session is intact (sign-out and sign-out-everywhere did not run).
    expect((await fetch(`${t.server.url}/api/v1/auth/me`, { headers: t.headersOf("owner") })).status).toBe(200);
  });
});
