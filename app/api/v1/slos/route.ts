import { sloCreate, slosRoute } from "@/server/routes/slos";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = slosRoute.GET;
export const POST = sloCreate;
export const { PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET", "POST");
