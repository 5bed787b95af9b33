import { invitationCreate, invitationsRoute } from "@/server/routes/invitations";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = invitationsRoute.GET;
export const POST = invitationCreate;
export const { PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET", "POST");
