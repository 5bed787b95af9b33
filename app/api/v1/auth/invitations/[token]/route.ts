import { invitationAcceptPost, invitationInfoGet } from "@/server/routes/invitations";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = invitationInfoGet;
export const POST = invitationAcceptPost;
export const { PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET", "POST");
