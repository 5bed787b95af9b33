import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { PageProblem } from "@/components/dashboard/page-problem";
import type { ProjectRole } from "@/lib/auth/roles";
import { callerOf, projectRoleOf, type Caller } from "@/server/auth/access";

/** The page's request as the access layer reads it: its session cookie and Authorization header. */
async function pageRequest(): Promise<Request> {
  const h = await headers();
  const forwarded = new Headers();
  for (const name of ["cookie", "authorization"]) {
    const value = h.get(name);
    if (value !== null) forwarded.set(name, value);
  }
  return new Request("http://faultline.invalid/", { headers: forwarded });
}

/** Who opened a settings page; null when nobody is signed in. */
export async function pageCaller(): Promise<Caller | null> {
  return callerOf(await pageRequest());
}

/** The caller's role in the project a settings page names; a project they are not a member of is a 404, as in the API. */
export async function pageProjectRole(caller: Caller, project: string): Promise<ProjectRole> {
  const role = await projectRoleOf(caller, project);
  if (role === null) notFound();
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
