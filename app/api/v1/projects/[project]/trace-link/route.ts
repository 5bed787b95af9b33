import { traceLinkDelete, traceLinkPut, traceLinkRoute } from "@/server/routes/trace-links";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = traceLinkRoute.GET;
export const PUT = traceLinkPut;
export const DELETE = traceLinkDelete;
export const { POST, PATCH, OPTIONS } = otherMethods("GET", "PUT", "DELETE");
