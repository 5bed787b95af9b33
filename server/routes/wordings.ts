import { createHash } from "node:crypto";
import { listWordingExperiments } from "@/db/experiments/variant-counts";
import { WORDINGS_MAX_AGE_S, wordingSetSchema, wordingsQuerySchema, type WordingSetAnswer } from "@/lib/contracts/wordings";
import { wordingEntries } from "@/lib/experiments/wording-entries";
import { parseQuery } from "../http/parse-query";
import { authenticateReader } from "../http/read-auth";
import { route } from "../http/route";
import { getStore } from "../store";

/** Whether `If-None-Match` names `etag` (a list, a weak form, or `*`). */
function matches(header: string | null, etag: string): boolean {
  if (header === null) return false;
  return header.split(",").some((t) => {
    const tag = t.trim().replace(/^W\//, "");
    return tag === "*" || tag === etag;
  });
}

/**
 * `GET /api/v1/wordings?project=`: what a runtime tells the model per code, from Faultline (running
 * experiments and promoted winners; docs/experiments.md). A read key of the project (or a member's
 * session, or the admin secret) reads it, as the CI reads do. The answer carries a strong ETag of its
 * body and `Cache-Control: private, max-age`; `If-None-Match` with the current tag answers 304.
 */
export const wordingsGet = route(async (req: Request) => {
  const q = parseQuery(req, wordingsQuerySchema);
  const store = await getStore();
  await authenticateReader(req, store, q.project);
  const answer: WordingSetAnswer = wordingSetSchema.parse({ project: q.project, entries: wordingEntries(await listWordingExperiments(store, q.project)) });
  const body = JSON.stringify(answer);
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  const headers = { ETag: etag, "Cache-Control": `private, max-age=${WORDINGS_MAX_AGE_S}`, Vary: "Authorization, Cookie" };
  if (matches(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(body, { status: 200, headers: { ...headers, "Content-Type": "application/json" } });
});
