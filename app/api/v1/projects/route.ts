import { projectsRoute } from "@/server/routes/projects";

export const dynamic = "force-dynamic";

export const GET = projectsRoute.GET;
