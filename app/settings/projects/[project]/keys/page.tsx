import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { KeysView } from "@/components/settings/keys-view";
import { roleAtLeast } from "@/lib/auth/roles";
import { projectDetailRoute } from "@/server/routes/project-admin";
import { projectKeysRoute } from "@/server/routes/project-keys";
import { decodeSegment } from "../../../../decode-segment";
import { pageCaller } from "@/server/auth/page-caller";
import { pageProjectRole, RoleTooLow, SignInFirst } from "../../../../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Keys · Settings · Faultline" };

export default async function KeysPage({ params }: { params: Promise<{ project: string }> }) {
  const project = decodeSegment((await params).project);
  const caller = await pageCaller();
  if (!caller) return <SignInFirst />;
  const role = await pageProjectRole(caller, project);
  if (!roleAtLeast(role, "admin")) return <RoleTooLow project={project} role={role} minimum="admin" what="keys" />;
  const qc = new QueryClient();
  const input = { params: { project }, search: {} };
  await Promise.all([projectDetailRoute.prefetch(qc, input), projectKeysRoute.prefetch(qc, input)]);
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <KeysView project={project} role={role} />
    </HydrationBoundary>
  );
}
