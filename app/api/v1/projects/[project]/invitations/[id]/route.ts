import { invitationRevoke } from "@/server/routes/invitations";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const DELETE = invitationRevoke;
export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods("DELETE");
