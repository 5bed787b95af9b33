import { notFound } from "next/navigation";
import type { z } from "zod";
import { PageProblem } from "@/components/dashboard/page-problem";
import { codeExists, projectExists, toolExists } from "@/db/queries/search";
import { normalizeQuery, type Endpoint, type RawQuery } from "@/lib/api/endpoint";
import { getStore } from "@/server/store";
import { decodeSegment } from "./decode-segment";

/** The in-app 400 of a page: names the first bad query parameter, its value, and what is wrong. */
export function badParameter(endpoint: Endpoint<z.ZodObject, z.ZodType, string>, search: RawQuery, path = "/"): React.ReactElement | null {
  const query = normalizeQuery(endpoint, search);
  const parsed = endpoint.query.safeParse(query);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  const name = String(issue.path[0] ?? "query");
  const value = query[name];
  return (
    <PageProblem
      status={400}
      title="This link has a bad parameter"
      message={`The parameter “${name}”${value === undefined ? "" : ` = “${value}”`} is not valid: ${issue.message}.`}
      href={path}
      linkText="Open this page without its parameters"
    />
  );
}

/** A 404; app/not-found.tsx words it from the address (see `describeMissing`). */
export function notFoundBecause(_message: string): never {
  notFound();
}

/**
 * What a 404 address names that does not exist, worded for the not-found page: the not-found
 * boundary renders apart from the page that called notFound(), so it reads the address again
 * (proxy.ts passes it along) instead of sharing the page's state.
 */
export async function describeMissing(url: string | null): Promise<string | null> {
  if (!url) return null;
  const u = new URL(url, "http://local");
  const project = u.searchParams.get("project") || "default";
  if (!(await projectExists(await getStore(), project))) return `There is no project “${project}”.`;
  const [, section, name] = u.pathname.split("/");
  if (name === undefined || name === "") return null;
  const subject = decodeSegment(name);
  if (section === "tools") return `There is no tool named “${subject}” in project “${project}”.`;
  if (section === "codes") return `There is no code “${subject}” in project “${project}”.`;
  if (section === "runs") return `There is no run “${subject}” in project “${project}”.`;
  return null;
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

/** The project a URL names ("default" when none); an unknown one is a 404 (app/not-found.tsx says which). */
export async function requireProject(search: RawQuery): Promise<string> {
  const project = first(search.project) ?? "default";
  if (!(await projectExists(await getStore(), project))) notFoundBecause(`There is no project “${project}”.`);
  return project;
}

/** A tool or code page of something the project never saw is a 404, not an empty page. */
export async function requireSubject(project: string, subject: { tool: string } | { code: string }): Promise<void> {
  const store = await getStore();
  const known = "tool" in subject ? await toolExists(store, project, subject.tool) : await codeExists(store, project, subject.code);
  if (!known) notFoundBecause("tool" in subject ? `There is no tool named “${subject.tool}” in project “${project}”.` : `There is no code “${subject.code}” in project “${project}”.`);
}
