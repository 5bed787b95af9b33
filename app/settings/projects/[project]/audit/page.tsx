import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { Suspense } from "react";
import { AuditView } from "@/components/settings/audit-view";
import { roleAtLeast } from "@/lib/auth/roles";
import { projectDetailRoute } from "@/server/routes/project-admin";
import { auditLogRoute } from "@/server/routes/audit-log";
import { decodeSegment } from "../../../../decode-segment";
import { pageCaller } from "@/server/auth/page-caller";
import { badParameter, pageProjectRole, RoleTooLow, SignInFirst } from "../../../../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Audit log · Settings · Faultline" };

export default async function AuditPage({
  params,
  searchParams,
}: {
  params: Promise<{ project: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const project = decodeSegment((await params).project);
  const search = await searchParams;
  const caller = await pageCaller();
  if (!caller) return <SignInFirst />;
  const role = await pageProjectRole(caller, project);
  if (!roleAtLeast(role, "admin")) return <RoleTooLow project={project} role={role} minimum="admin" what="the audit log" />;
  const path = `/settings/projects/${encodeURIComponent(project)}/audit`;
  const bad = badParameter(auditLogRoute.endpoint, search, path);
  if (bad) return bad;
  const qc = new QueryClient();
  await Promise.all([projectDetailRoute.prefetch(qc, { params: { project }, search: {} }), auditLogRoute.prefetch(qc, { params: { project }, search })]);
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <Suspense>
        <AuditView project={project} role={role} />
      </Suspense>
    </HydrationBoundary>
  );
}
