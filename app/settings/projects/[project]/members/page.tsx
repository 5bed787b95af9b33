import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import type { Metadata } from "next";
import { MembersView } from "@/components/members/members-view";
import { roleAtLeast } from "@/lib/auth/roles";
import { invitationsRoute } from "@/server/routes/invitations";
import { membersRoute } from "@/server/routes/members";
import { decodeSegment } from "../../../../decode-segment";
import { pageProjectRole, requirePageCaller } from "../../../../page-guards";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Members · Faultline" };

export default async function MembersPage({ params }: { params: Promise<{ project: string }> }) {
  const project = decodeSegment((await params).project);
  const caller = await requirePageCaller();
  const role = await pageProjectRole(caller, project);
  const qc = new QueryClient();
  await Promise.all([
    membersRoute.prefetch(qc, { params: { project }, search: {} }),
    roleAtLeast(role, "admin") ? invitationsRoute.prefetch(qc, { params: { project }, search: {} }) : undefined,
  ]);
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <MembersView project={project} role={role} selfId={caller.kind === "user" ? caller.userId : null} />
    </HydrationBoundary>
  );
}
