import { projectDetailRoute, projectPatch } from "@/server/routes/project-admin";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = projectDetailRoute.GET;
export const PATCH = projectPatch;
export const { POST, PUT, DELETE, OPTIONS } = otherMethods("GET", "PATCH");
