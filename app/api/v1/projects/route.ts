import { projectsRoute } from "@/server/routes/projects";
import { projectCreate } from "@/server/routes/project-admin";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = projectsRoute.GET;
export const POST = projectCreate;
export const { PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET", "POST");
