import { notFound } from "next/navigation";
import { cache } from "react";
import type { z } from "zod";
import { PageProblem } from "@/components/dashboard/page-problem";
import { codeExists, projectExists, toolExists } from "@/db/queries/search";
import { normalizeQuery, type Endpoint, type RawQuery } from "@/lib/api/endpoint";
import { getStore } from "@/server/store";

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

/**
 * What this request found missing, for app/not-found.tsx: React's `cache` is per server request, so
 * the page that called notFound() and the not-found boundary it renders share one object.
 */
export const missing = cache((): { message?: string } => ({}));

export function notFoundBecause(message: string): never {
  missing().message = message;
  notFound();
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) || undefined;

/** The project a URL names ("default" when none); an unknown one is a 404 (app/not-found.tsx says which). */
export function requireProject(search: RawQuery): string {
  const project = first(search.project) ?? "default";
  if (!projectExists(getStore(), project)) notFoundBecause(`There is no project “${project}”.`);
  return project;
}

/** A tool or code page of something the project never saw is a 404, not an empty page. */
export function requireSubject(project: string, subject: { tool: string } | { code: string }): void {
  const store = getStore();
  const known = "tool" in subject ? toolExists(store, project, subject.tool) : codeExists(store, project, subject.code);
  if (!known) notFoundBecause("tool" in subject ? `There is no tool named “${subject.tool}” in project “${project}”.` : `There is no code “${subject.code}” in project “${project}”.`);
}
