import { signOutEverywherePost } from "@/server/routes/auth";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const POST = signOutEverywherePost;
export const { GET, HEAD, PUT, DELETE, PATCH, OPTIONS } = otherMethods("POST");
