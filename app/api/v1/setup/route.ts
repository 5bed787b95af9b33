import { setupRoute } from "@/server/routes/projects";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = setupRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
