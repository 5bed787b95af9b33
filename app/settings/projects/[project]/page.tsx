import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { ProjectSettingsView } from "@/components/settings/project-settings-view";
import { projectDetailRoute } from "@/server/routes/project-admin";
import { decodeSegment } from "../../../decode-segment";
import { pageCaller } from "@/server/auth/page-caller";
import { pageProjectRole, SignInFirst } from "../../../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Project · Settings · Faultline" };

export default async function ProjectSettingsPage({ params }: { params: Promise<{ project: string }> }) {
  const project = decodeSegment((await params).project);
  const caller = await pageCaller();
  if (!caller) return <SignInFirst />;
  const role = await pageProjectRole(caller, project);
  const qc = new QueryClient();
  await projectDetailRoute.prefetch(qc, { params: { project }, search: {} });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <ProjectSettingsView project={project} role={role} />
    </HydrationBoundary>
  );
}
