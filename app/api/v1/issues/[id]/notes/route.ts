import { issueNoteCreate } from "@/server/routes/issues";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const POST = issueNoteCreate;
export const { GET, PUT, DELETE, PATCH, OPTIONS } = otherMethods("POST");
