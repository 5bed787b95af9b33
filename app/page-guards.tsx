import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import type { z } from "zod";
import { PageProblem } from "@/components/dashboard/page-problem";
import { listUserMemberships } from "@/db/auth/memberships";
import { listProjects } from "@/db/queries/list-projects";
import { codeExists, toolExists } from "@/db/queries/search";
import type { Endpoint, RawQuery } from "@/lib/api/endpoint";
import { queryProblem } from "@/lib/query/page-queries";
import { signInPath } from "@/lib/auth/next-path";
import type { ProjectRole } from "@/lib/auth/roles";
import { isInstanceLevel, projectRoleOf, type Caller } from "@/server/auth/access";
import { pageCaller } from "@/server/auth/page-caller";
import { getStore } from "@/server/store";
import { decodeSegment } from "./decode-segment";
import { INVITATION_GONE, SETUP_LINK_GONE } from "./missing-messages";

/**
 * The in-app 400 of a page: names the first bad query parameter, its value, and what is wrong. The
 * proxy already answered the address with HTTP 400 (`pageQueryProblem`, the same check).
 */
export function badParameter(
  endpoint: Pick<Endpoint<z.ZodObject, z.ZodType, string>, "query">,
  search: RawQuery,
  path = "/",
  linkText = "Open this page without its parameters",
): React.ReactElement | null {
  const problem = queryProblem(endpoint, search);
  if (problem === null) return null;
  return (
    <PageProblem
      status={400}
      title="This link has a bad parameter"
      message={`The parameter “${problem.name}”${problem.value === undefined ? "" : ` = “${problem.value}”`} is not valid: ${problem.message}.`}
      href={path}
      linkText={linkText}
    />
  );
}

/** A 404; app/not-found.tsx words it from the address (see `describeMissing`). */
export function notFoundBecause(_message: string): never {
  notFound();
}

/** The address of the page being rendered (path and query), as the proxy passed it along. */
async function currentPath(): Promise<string> {
  return (await headers()).get("x-faultline-url") ?? "/";
}

/** The page's caller; an anonymous visitor goes to the sign-in page, which brings them back here. */
export async function requirePageCaller(): Promise<Caller> {
  const caller = await pageCaller();
  if (!caller) redirect(signInPath(await currentPath()));
  return caller;
}

/** The caller's role in the project a page names; a project they are not a member of is a 404, as in the API. */
export async function pageProjectRole(caller: Caller, project: string): Promise<ProjectRole> {
  const role = await projectRoleOf(caller, project);
  if (role === null) notFoundBecause(`There is no project “${project}”.`);
  return role;
}

/** What a settings page shows to somebody who is not signed in. */
export function SignInFirst() {
  return <PageProblem status={401} title="Sign in to see the settings" message="Projects, keys and the audit log are shown to the people who belong to them." href="/sign-in" linkText="Sign in" />;
}

/** What a project page shows to a member whose role is too low for it (no controls, no data). */
export function RoleTooLow({ project, role, minimum, what }: { project: string; role: ProjectRole; minimum: ProjectRole; what: string }) {
  return (
    <PageProblem
      status={403}
      title={`Only ${minimum}s and owners see ${what}`}
      message={`Your role in “${project}” is ${role}. Ask one of its owners if you need more.`}
      href={`/settings/projects/${encodeURIComponent(project)}`}
      linkText="Back to the project"
    />
  );
}

/** The first project the caller may read (by id), or null when they belong to none. */
async function firstProjectOf(caller: Caller): Promise<string | null> {
  const store = await getStore();
  if (isInstanceLevel(caller)) return (await listProjects(store)).projects[0]?.id ?? null;
  return (await listUserMemberships(store, (caller as Extract<Caller, { kind: "user" }>).userId))[0]?.projectId ?? null;
}

/** The first path segments of the pages that show one project. */
const PROJECT_SECTIONS = new Set(["", "tools", "codes", "runs", "drift", "conformance", "alerts", "settings"]);

/** The project an address is about: a `/settings/projects/<id>/…` segment, else `?project=`, else "default". */
function projectOfUrl(u: URL): string {
  const [, section, sub, id] = u.pathname.split("/");
  if (section === "settings" && sub === "projects" && id) return decodeSegment(id);
  return u.searchParams.get("project") || "default";
}

/**
 * What a 404 address names that does not exist, worded for the not-found page: the not-found
 * boundary renders apart from the page that called notFound(), so it reads the address again
 * (proxy.ts passes it along) instead of sharing the page's state. A project the caller is not a
 * member of reads exactly like one that does not exist.
 */
export async function describeMissing(url: string | null): Promise<string | null> {
  if (!url) return null;
  const u = new URL(url, "http://local");
  const settingsProject = /^\/settings\/projects\/([^/]+)/.exec(u.pathname)?.[1];
  if (settingsProject !== undefined) return `There is no project “${decodeSegment(settingsProject)}”.`;
  // The link pages are for visitors who have no project (yet): their 404s are about the link.
  if (/^\/setup\/?$/.test(u.pathname)) return SETUP_LINK_GONE;
  if (/^\/invite\//.test(u.pathname)) return INVITATION_GONE;
  // An address outside the dashboard's sections is just not a page, whoever asks.
  if (!PROJECT_SECTIONS.has(u.pathname.split("/")[1] ?? "") && !u.searchParams.has("project")) return null;
  const project = projectOfUrl(u);
  const caller = await pageCaller();
  if (!caller || (await projectRoleOf(caller, project)) === null) {
    if (caller && (await firstProjectOf(caller)) === null) return "You are not a member of any project yet: ask a project admin for an invitation link.";
    return `There is no project “${project}”.`;
  }
  const [, section, name] = u.pathname.split("/");
  if (name === undefined || name === "") return null;
  const subject = decodeSegment(name);
  if (section === "tools") return `There is no tool named “${subject}” in project “${project}”.`;
  if (section === "codes") return `There is no code “${subject}” in project “${project}”.`;
  if (section === "runs") return `There is no run “${subject}” in project “${project}”.`;
  return null;
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

/**
 * The project a URL names, when the caller is a member of it; a project that does not
 * exist or that the caller is not a member of is a 404 (app/not-found.tsx says which, in words that
 * do not tell the two apart). A URL that names none means "default", or, for someone who is not a
 * member of it, their first project (the page reloads with `?project=`).
 */
export async function requireProject(search: RawQuery): Promise<string> {
  const caller = await requirePageCaller();
  const named = first(search.project);
  const project = named ?? "default";
  const role = await projectRoleOf(caller, project);
  if (role === null && named === undefined) {
    const fallback = await firstProjectOf(caller);
    if (fallback !== null) {
      const u = new URL(await currentPath(), "http://local");
      u.searchParams.set("project", fallback);
      redirect(u.pathname + u.search);
    }
  }
  if (role === null) notFoundBecause(`There is no project “${project}”.`);
  return project;
}

/** A tool or code page of something the project never saw is a 404, not an empty page. */
export async function requireSubject(project: string, subject: { tool: string } | { code: string }): Promise<void> {
  const store = await getStore();
  const known = "tool" in subject ? await toolExists(store, project, subject.tool) : await codeExists(store, project, subject.code);
  if (!known) notFoundBecause("tool" in subject ? `There is no tool named “${subject.tool}” in project “${project}”.` : `There is no code “${subject.code}” in project “${project}”.`);
}
