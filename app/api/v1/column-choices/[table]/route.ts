import { columnChoicePut } from "@/server/routes/column-choices";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const PUT = columnChoicePut;
export const { GET, POST, DELETE, PATCH, OPTIONS } = otherMethods("PUT");
