import { membersRoute } from "@/server/routes/members";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = membersRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
