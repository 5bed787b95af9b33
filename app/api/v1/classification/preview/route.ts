import { classificationPreviewRoute } from "@/server/routes/classification";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = classificationPreviewRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
