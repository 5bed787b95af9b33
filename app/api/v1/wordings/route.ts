import { wordingsGet } from "@/server/routes/wordings";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = wordingsGet;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
