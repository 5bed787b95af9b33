// Team access in Chromium, on a server of its own (accounts end the setup mode the shared server
// keeps): the setup link the server printed, the owner's account, an invitation to one project,
// the viewer who accepts it in another browser and sees that project only, and signing out.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createProject } from "@/db/keys";
import { connectBrowser } from "../helpers/browser";
import { startServer, type TestServer } from "../helpers/server";
import { setupLinkOf } from "../helpers/team";

let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startServer({ seed: async (store) => void (await createProject(store, "shop", "Shop agents")) }),
    connectBrowser(inject("browserWsEndpoint")),
  ]);
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await server?.stop();
});

/** A fresh browser (its own cookies), whose page waits for hydration after each HTML navigation. */
async function newBrowserPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1300, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
  page.on("dialog", (d) => {
    pageErrors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  return page;
}
const hydrated = (page: Page) => page.locator("html[data-hydrated]").waitFor({ state: "attached" });

const OWNER = { email: "olive@example.com", name: "Olive Owner", password: "olive's long password" };
const VIEWER = { email: "vic@example.com", name: "Vic Viewer", password: "vic's long password" };
let inviteLink = "";
let owner: Page;
let viewer: Page;

describe("team access in the browser", () => {
  it("creates the owner from the printed setup link", async () => {
    owner = await newBrowserPage();
    const link = setupLinkOf(server.output());
    await owner.goto(link.href);
    await hydrated(owner);
    const form = owner.locator('form[aria-label="Create the owner account"]');
    await form.getByLabel("Email").fill(OWNER.email);
    await form.getByLabel("Name").fill(OWNER.name);
    await form.getByLabel(/^Password \(at least/).fill(OWNER.password);
    await form.getByLabel("Password again").fill(OWNER.password);
    await form.getByRole("button", { name: "Create the owner account" }).click();
    await owner.waitForURL(`${server.url}/`);
    await hydrated(owner);
    const account = owner.getByTestId("account-menu");
    await expect.poll(() => account.textContent()).toBe(`${OWNER.name}${OWNER.email}instance ownerSign outSign out everywhere`);
    // The setup banner is gone, and the link is spent.
    expect(await owner.getByTestId("setup-banner").count()).toBe(0);
    expect((await fetch(link)).status).toBe(404);
  });

  it("invites a viewer to one project with a one-time link", async () => {
    await owner.goto(`${server.url}/settings/projects/shop`);
    await hydrated(owner);
    // The project's settings lead to its members page.
    await owner.locator('nav[aria-label="Project settings"] a', { hasText: "Members" }).click();
    await owner.waitForURL(`${server.url}/settings/projects/shop/members`);
    await hydrated(owner);
    const members = owner.locator('table[aria-label="Members"] tbody tr');
    await expect.poll(() => members.allTextContents()).toEqual([expect.stringContaining(OWNER.email)]);
    const form = owner.locator('form[aria-label="New invitation"]');
    await form.getByLabel("Role").selectOption("viewer");
    await form.getByLabel(/^Email/).fill(VIEWER.email);
    await form.getByRole("button", { name: "Create invitation link" }).click();
    const link = owner.getByTestId("invitation-link");
    await link.waitFor();
    inviteLink = (await link.textContent())!;
    expect(inviteLink).toMatch(new RegExp(`^${server.url}/invite/[A-Za-z0-9_-]{43}$`));
    await expect
      .poll(() => owner.locator('table[aria-label="Pending invitations"] tbody tr td').allTextContents())
      .toEqual([VIEWER.email, "viewer", OWNER.email, expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), "Revoke"]);
  });

  it("lets the viewer join in another browser, and shows them that project only", async () => {
    viewer = await newBrowserPage();
    await viewer.goto(inviteLink);
    await hydrated(viewer);
    expect(await viewer.locator("h1").textContent()).toBe("Join Shop agents");
    const form = viewer.locator('form[aria-label="Create your account"]');
    expect(await form.getByLabel("Email").inputValue()).toBe(VIEWER.email);
    await form.getByLabel("Name").fill(VIEWER.name);
    await form.getByLabel(/^Password/).fill(VIEWER.password);
    await form.getByRole("button", { name: "Create account and join" }).click();
    await viewer.waitForURL(`${server.url}/?project=shop`);
    await hydrated(viewer);

    // The project switcher lists the one project.
    await viewer.goto(`${server.url}/tools?project=shop`);
    await hydrated(viewer);
    const switcher = viewer.locator('select[name="project"]');
    await expect.poll(() => switcher.locator("option").allTextContents()).toEqual(["Shop agents (shop)"]);
    // Another project, even the default one, is the not-found page.
    for (const path of ["/tools?project=default", "/settings/projects/default/members"]) {
      const res = await viewer.goto(`${server.url}${path}`);
      expect(res?.status()).toBe(404);
      expect(await viewer.getByTestId("problem-message").textContent()).toBe("There is no project “default”.");
    }
    // Without ?project= the dashboard opens the viewer's own project.
    await viewer.goto(`${server.url}/tools`);
    expect(new URL(viewer.url()).search).toBe("?project=shop");
  });

  it("shows the viewer the members but none of the actions", async () => {
    await viewer.goto(`${server.url}/settings/projects/shop/members`);
    await hydrated(viewer);
    const rows = viewer.locator('table[aria-label="Members"] tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await viewer.locator('table[aria-label="Members"] th').allTextContents()).toEqual(["Name", "Email", "Role", "Joined"]);
    expect(await rows.locator("select, button").count()).toBe(0);
    expect(await viewer.locator('form[aria-label="New invitation"]').count()).toBe(0);
    expect(await viewer.getByText("Pending invitations").count()).toBe(0);
    // A viewer's settings tabs leave out the keys and the audit log.
    expect(await viewer.locator('nav[aria-label="Project settings"] a').allTextContents()).toEqual(["Project", "Members", "Classification"]);
  });

  it("signs the viewer out", async () => {
    await viewer.goto(`${server.url}/tools?project=shop`);
    await hydrated(viewer);
    await viewer.getByTestId("account-menu").getByRole("button", { name: "Sign out", exact: true }).click();
    await viewer.waitForURL(`${server.url}/sign-in`);
    await viewer.goto(`${server.url}/tools?project=shop`);
    expect(viewer.url()).toBe(`${server.url}/sign-in?next=%2Ftools%3Fproject%3Dshop`);
    // The owner's own session is untouched.
    const res = await owner.goto(`${server.url}/tools?project=shop`);
    expect(res?.status()).toBe(200);
    expect(pageErrors).toEqual([]);
  });
});
