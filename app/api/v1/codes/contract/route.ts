import { codeContractGet } from "@/server/routes/gate";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = codeContractGet;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
