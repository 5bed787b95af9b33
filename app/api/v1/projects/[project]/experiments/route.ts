import { experimentCreate, experimentsRoute } from "@/server/routes/experiments";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = experimentsRoute.GET;
export const POST = experimentCreate;
export const { PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET", "POST");
