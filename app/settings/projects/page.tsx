import { dehydrate, HydrationBoundary, QueryClient } from "@tanstack/react-query";
import { ProjectsSettingsView } from "@/components/settings/projects-settings-view";
import { projectsRoute } from "@/server/routes/projects";
import { pageCaller } from "@/server/auth/page-caller";
import { SignInFirst } from "../../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Projects · Settings · Faultline" };

export default async function ProjectsSettingsPage() {
  if (!(await pageCaller())) return <SignInFirst />;
  const qc = new QueryClient();
  await projectsRoute.prefetch(qc, { params: {}, search: {} });
  return (
    <HydrationBoundary state={dehydrate(qc)}>
      <ProjectsSettingsView />
    </HydrationBoundary>
  );
}
