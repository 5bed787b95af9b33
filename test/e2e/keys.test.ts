// Keys in Chromium: an admin creates an ingest key, sees it once, copies it, sends an event with it,
// sees when it was last used, and revokes it; a viewer gets no key controls. On a server of its own:
// the accounts end setup mode, which the other browser files rely on.
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { createKey, createProject } from "@/db/keys";
import { connectBrowser } from "../helpers/browser";
import { createAccount, type TestAccount } from "../helpers/session-accounts";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let browser: Browser;
let admin: TestAccount;
let viewer: TestAccount;
let root: TestAccount;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ dialect: inject("serverDialect") }), connectBrowser(inject("browserWsEndpoint"))]);
  await createProject(server.store, "acme", "Acme agents");
  admin = await createAccount(server.store, { email: "admin@acme.test", memberships: [["acme", "admin"]] });
  viewer = await createAccount(server.store, { email: "viewer@acme.test", memberships: [["acme", "viewer"]] });
  root = await createAccount(server.store, { email: "root@faultline.test", instanceOwner: true });
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
  expect(pageErrors.splice(0)).toEqual([]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A signed-in page (the account's session cookies), ready for input once hydrated. */
async function signedIn(
  account: TestAccount,
  options: { colorScheme?: "light" | "dark"; bypassCSP?: boolean } = {},
): Promise<{ page: Page; goto: (path: string) => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, ...options });
  contexts.push(context);
  await context.addCookies(account.cookies(server.url));
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  const page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("dialog", (d) => {
    pageErrors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  const goto = async (path: string) => {
    await page.goto(server.url + path);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  };
  return { page, goto };
}

async function ingestOne(key: string): Promise<number> {
  const at = Date.now() - 2_000;
  const res = await fetch(`${server.url}/api/v1/ingest`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ records: [{ type: "tool_call_span", id: `s-${at}`, run_id: "r1", call_id: "c1", tool: "lookup", attempt: 1, started_at: at, ended_at: at + 30, outcome: "ok" }] }),
  });
  return res.status;
}

describe("the keys page in Chromium", () => {
  it("lets an admin create a key shown once, copy it, see it used, and revoke it", async () => {
    const { page, goto } = await signedIn(admin);
    await goto("/settings/projects/acme/keys");
    await page.getByRole("heading", { name: "Keys", level: 1 }).waitFor();
    await page.getByText("No keys yet: create one above to start sending data.").waitFor();

    const form = page.getByRole("form", { name: "New key" });
    await form.getByLabel("Key name").fill("support agent prod");
    await form.getByLabel("Scope").selectOption("ingest");
    await form.getByRole("button", { name: "Create key" }).click();

    // Shown once, selected in a focused field, with a copy button that says so.
    const reveal = page.getByTestId("created-key");
    await reveal.waitFor();
    const field = reveal.getByLabel("The key");
    const key = await field.inputValue();
    expect(key).toMatch(/^flk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("created-key-value");
    expect(await field.evaluate((el: HTMLInputElement) => el.value.slice(el.selectionStart ?? 0, el.selectionEnd ?? 0))).toBe(key);
    await reveal.getByRole("button", { name: "Copy" }).click();
    await expect.poll(() => reveal.getByRole("status").textContent()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    const prefix = key.slice(0, 12);
    const row = page.locator(`table[aria-label="Keys"] tbody tr[data-prefix="${prefix}"]`);
    await expect.poll(() => row.locator("td").allTextContents()).toEqual(["support agent prod", prefix, "ingest", "just now", "never", "activeRevoke…"]);

    // One event with the key; after a reload the key itself is gone and its last use shows.
    const sentAt = Date.now();
    expect(await ingestOne(key)).toBe(200);
    await goto("/settings/projects/acme/keys");
    await row.waitFor();
    expect(await page.getByTestId("created-key").count()).toBe(0);
    expect(await page.content()).not.toContain(key.slice(13));
    const lastUsed = row.getByTestId("last-used").locator("time");
    expect(await lastUsed.textContent()).toBe("just now");
    const usedAt = Date.parse((await lastUsed.getAttribute("datetime"))!);
    expect(usedAt).toBeGreaterThanOrEqual(sentAt - 1000);
    expect(await lastUsed.getAttribute("title")).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);

    // Revoke asks first (focus on the confirmation), then the key is refused.
    await row.getByRole("button", { name: `Revoke support agent prod (${prefix})` }).click();
    const confirm = row.getByRole("button", { name: `Revoke ${prefix} now` });
    await expect.poll(() => confirm.evaluate((el) => el === document.activeElement)).toBe(true);
    await confirm.click();
    await expect.poll(() => row.locator("td").last().textContent()).toBe("revoked just now");
    expect(await ingestOne(key)).toBe(401);

    // Both changes are in the audit log, by this admin, from this address.
    await goto("/settings/projects/acme/audit");
    const entries = page.locator('table[aria-label="Audit log"] tbody tr');
    await expect
      .poll(() => entries.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].slice(1).map((td) => (td.textContent ?? "").trim()))))
      .toEqual([
        ["admin@acme.test", "Revoked a key support agent prod (ingest)", prefix, "127.0.0.1"],
        ["admin@acme.test", "Created a key support agent prod (ingest)", prefix, "127.0.0.1"],
      ]);
    await page.getByLabel("Action").selectOption("key.created");
    await expect.poll(() => entries.count()).toBe(1);
    expect(page.url()).toBe(`${server.url}/settings/projects/acme/audit?action=key.created`);
  });

  it("shows a viewer no key or audit controls", async () => {
    await createKey(server.store, "acme", "existing");
    const { page, goto } = await signedIn(viewer);
    await goto("/settings/projects/acme/keys");
    const problem = page.getByTestId("page-problem");
    await problem.waitFor();
    expect(await problem.getAttribute("data-status")).toBe("403");
    expect(await problem.getByRole("heading").textContent()).toBe("Only admins and owners see keys");
    expect(await page.getByRole("button", { name: "Create key" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Revoke/ }).count()).toBe(0);
    expect(await page.locator('table[aria-label="Keys"]').count()).toBe(0);

    // The project page: facts only, no Keys or Audit tab, no rename or archive.
    await goto("/settings/projects/acme");
    await page.getByRole("heading", { name: "Acme agents", level: 1 }).waitFor();
    expect(await page.getByRole("navigation", { name: "Project settings" }).getByRole("link").allTextContents()).toEqual(["Project", "Members", "Classification"]);
    expect(await page.getByRole("button", { name: /Rename|Archive/ }).count()).toBe(0);
    expect(await page.getByText("Only the project's owners can rename, archive or restore it.").count()).toBe(1);

    // A project the viewer is not in is a 404, like a project that does not exist.
    await goto("/settings/projects/default/keys");
    await expect.poll(() => page.getByTestId("page-problem").getAttribute("data-status")).toBe("404");
  });
});

describe("the project pages in Chromium", () => {
  it("let an instance owner create a project, then rename, archive and restore it, each archive step confirmed", async () => {
    const { page, goto } = await signedIn(root);
    await goto("/settings/projects");
    const form = page.getByRole("form", { name: "New project" });
    await form.getByLabel("Name").fill("Support Bots EU");
    expect(await form.getByLabel("Id").inputValue()).toBe("support-bots-eu");
    await form.getByRole("button", { name: "Create project" }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Created" }).textContent()).toBe("Created “Support Bots EU” (support-bots-eu). Create its first key");
    const row = page.locator('table[aria-label="Projects"] tbody tr', { hasText: "support-bots-eu" });
    await expect.poll(() => row.locator("td").allTextContents()).toEqual(["Support Bots EU", "support-bots-eu", "owner", "active"]);

    await row.getByRole("link", { name: "Support Bots EU" }).click();
    await page.getByRole("heading", { name: "Support Bots EU", level: 1 }).waitFor();
    await page.getByLabel("Project name").fill("Support bots (EU)");
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByRole("heading", { name: "Support bots (EU)", level: 1 }).waitFor();

    // Archive asks first, with focus on the confirmation; Cancel changes nothing.
    await page.getByRole("button", { name: "Archive project…" }).click();
    const confirm = page.getByRole("button", { name: "Archive project", exact: true });
    await expect.poll(() => confirm.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByRole("button", { name: "Cancel" }).click();
    expect(Number((await server.store.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM projects WHERE id = 'support-bots-eu' AND archived_at IS NOT NULL"))?.n)).toBe(0);
    await page.getByRole("button", { name: "Archive project…" }).click();
    await confirm.click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Archived" }).textContent()).toBe("Archived: ingest is refused from now on.");
    await page.locator(".app-main").getByText("archived", { exact: true }).waitFor();
    await goto("/settings/projects/support-bots-eu/keys");
    await page.getByText("This project is archived: its keys cannot send data, and new keys cannot be created until an owner restores it.").waitFor();
    expect(await page.getByRole("button", { name: "Create key" }).count()).toBe(0);

    await goto("/settings/projects/support-bots-eu");
    await page.getByRole("button", { name: "Restore project…" }).click();
    await page.getByRole("button", { name: "Restore project", exact: true }).click();
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Restored" }).textContent()).toBe("Restored: ingest and alerts are on again.");
    const actions = await server.store.all<{ action: string }>("SELECT action FROM audit_log WHERE project_id = 'support-bots-eu' ORDER BY id");
    expect(actions.map((a) => a.action)).toEqual(["project.created", "project.renamed", "project.archived", "project.restored"]);
  });
});

// axe-core is injected as a script, which the nonce CSP refuses: this context bypasses CSP (only here).
const AXE = path.join(process.cwd(), "node_modules/axe-core/axe.min.js");
interface AxeResult {
  violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const result = (await page.evaluate(() => (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<unknown> } }).axe.run(document, { resultTypes: ["violations"] }))) as AxeResult;
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${n.target.join(" ")}`));
}

describe("the settings pages with axe-core", () => {
  for (const colorScheme of ["light", "dark"] as const) {
    it(`have no serious or critical violation in ${colorScheme} mode, with a key shown and a confirmation open`, async () => {
      const { page, goto } = await signedIn(admin, { colorScheme, bypassCSP: true });
      const found: Record<string, string[]> = {};
      const check = async (name: string) => {
        const v = await seriousViolations(page);
        if (v.length > 0) found[name] = v;
      };
      await goto("/settings/projects");
      await page.getByRole("table", { name: "Projects" }).waitFor();
      await check("projects");
      await goto("/settings/projects/acme");
      // An admin reads the project; renaming and archiving are the owner's.
      await page.getByText("Only the project's owners can rename, archive or restore it.").waitFor();
      expect(await page.getByRole("button", { name: "Archive project…" }).count()).toBe(0);
      await check("project");
      await goto("/settings/projects/acme/keys");
      await page.getByRole("form", { name: "New key" }).getByLabel("Key name").fill(`a11y ${colorScheme}`);
      await page.getByRole("button", { name: "Create key" }).click();
      await page.getByTestId("created-key").waitFor();
      await page.locator('table[aria-label="Keys"] button', { hasText: "Revoke…" }).first().click();
      await page.getByRole("button", { name: /^Revoke flk_\w+ now$/ }).waitFor();
      await check("keys");
      await goto("/settings/projects/acme/audit");
      await page.getByRole("table", { name: "Audit log" }).waitFor();
      await check("audit");
      expect(found).toEqual({});
    });
  }
});
