import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { ClassificationRulesView } from "@/components/settings/classification-rules-view";
import { projectDetailRoute } from "@/server/routes/project-admin";
import { classificationRulesRoute } from "@/server/routes/classification";
import { decodeSegment } from "../../../../decode-segment";
import { pageCaller } from "@/server/auth/page-caller";
import { pageProjectRole, SignInFirst } from "../../../../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Classification · Settings · Faultline" };

export default async function ClassificationPage({ params }: { params: Promise<{ project: string }> }) {
  const project = decodeSegment((await params).project);
  const caller = await pageCaller();
  if (!caller) return <SignInFirst />;
  const role = await pageProjectRole(caller, project);
  const qc = new QueryClient();
  await Promise.all([projectDetailRoute.prefetch(qc, { params: { project }, search: {} }), classificationRulesRoute.prefetch(qc, { params: {}, search: { project } })]);
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <ClassificationRulesView project={project} role={role} />
    </HydrationBoundary>
  );
}
