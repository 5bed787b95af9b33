import { gateGet, gatePost } from "@/server/routes/gate";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = gateGet;
export const POST = gatePost;
export const { PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET", "POST");
