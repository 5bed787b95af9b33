// Every write route on disk refuses a signed-in browser's request that lacks its session's CSRF
// token, carries a wrong one, or comes from another site, before anything else is looked at, and
// writes nothing. The routes come from the route files (scripts/lint/write-routes.mjs): a write
// added later is checked here without a new row. Then the order after it: a caller without rights
// gets 404 or 403 before any 400 about the body.
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
    expect(mutations.length).toBe(38);
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

describe("rights before the body", () => {
  const error = async (res: Response) => [res.status, ((await res.json()) as { error: { code: string } }).error.code];
  const as = (who: "admin" | "member" | "viewer" | "outsider", method: string, path: string, body: unknown) =>
    fetch(`${team().server.url}${path}`, json(method, team().headersOf(who), body));

  it("answers 404 to a stranger and 403 to too low a role, whatever the body; 400 only to who may write", async () => {
    const t = team();
    const created = await as("admin", "POST", "/api/v1/alerts/rules", { project: t.project, name: "order check", params: { kind: "new_code" } });
    expect(created.status).toBe(201);
    const rule = ((await created.json()) as { id: number }).id;
    const bad = { project: t.project, name: "", role: "emperor", params: 7 };
    const rows: [string, string, unknown, Record<"outsider" | "viewer" | "member" | "admin", [number, string]>][] = [
      ["POST", "/api/v1/alerts/rules", bad, { outsider: [404, "not_found"], viewer: [403, "forbidden"], member: [403, "forbidden"], admin: [400, "bad_request"] }],
      ["POST", "/api/v1/alerts/receivers", bad, { outsider: [404, "not_found"], viewer: [403, "forbidden"], member: [403, "forbidden"], admin: [400, "bad_request"] }],
      ["PATCH", `/api/v1/alerts/rules/${rule}`, { name: "" }, { outsider: [404, "not_found"], viewer: [403, "forbidden"], member: [403, "forbidden"], admin: [400, "bad_request"] }],
      // Muting is a member's right: a member's bad mute is a 400, a viewer's a 403.
      ["PATCH", `/api/v1/alerts/rules/${rule}`, { muted: "yes" }, { outsider: [404, "not_found"], viewer: [403, "forbidden"], member: [400, "bad_request"], admin: [400, "bad_request"] }],
      ["POST", `/api/v1/projects/${t.project}/invitations`, bad, { outsider: [404, "not_found"], viewer: [403, "forbidden"], member: [403, "forbidden"], admin: [400, "bad_request"] }],
      ["PATCH", `/api/v1/projects/${t.project}/members/${t.accounts.viewer.userId}`, bad, { outsider: [404, "not_found"], viewer: [403, "forbidden"], member: [403, "forbidden"], admin: [400, "bad_request"] }],
      ["POST", `/api/v1/projects/${t.project}/keys`, bad, { outsider: [404, "not_found"], viewer: [403, "forbidden"], member: [403, "forbidden"], admin: [400, "bad_request"] }],
      // Unreadable JSON is no exception once the project is in the path.
      ["POST", `/api/v1/projects/${t.project}/keys`, "{not json", { outsider: [404, "not_found"], viewer: [403, "forbidden"], member: [403, "forbidden"], admin: [400, "invalid_json"] }],
    ];
    for (const [method, path, body, expected] of rows) {
      const send = (who: "admin" | "member" | "viewer" | "outsider") =>
        typeof body === "string" ? fetch(`${t.server.url}${path}`, { method, headers: { ...t.headersOf(who), "content-type": "application/json" }, body }) : as(who, method, path, body);
      const answered = { outsider: await error(await send("outsider")), viewer: await error(await send("viewer")), member: await error(await send("member")), admin: await error(await send("admin")) };
      expect(answered, `${method} ${path} ${JSON.stringify(body)}`).toEqual(expected);
    }
  });
});
