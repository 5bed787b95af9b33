import { codeDetailRoute } from "@/server/routes/code-detail";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = codeDetailRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
