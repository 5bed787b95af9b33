import { getStore } from "@/server/store";
import { getSetupInfo } from "@/db/queries/get-setup-info";
import { setupQuerySchema } from "@/lib/contracts/projects";
import { parseQuery } from "@/server/http/parse-query";
import { route } from "@/server/http/route";

export const dynamic = "force-dynamic";

/** First-run information: key prefixes only; a key itself is shown once, by `npm run keys -- create`. */
export const GET = route((req: Request) => {
  const q = parseQuery(req, setupQuerySchema);
  return Response.json(getSetupInfo(getStore(), q.project));
});
