import { columnChoicesRoute } from "@/server/routes/column-choices";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = columnChoicesRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
