import { getDriftFreshness } from "@/db/drift/get-drift-freshness";
import { getCodeContract } from "@/db/drift/get-code-contract";
import { getGate } from "@/db/drift/get-gate";
import type { Store } from "@/db/client";
import { formatIssues } from "@/lib/contracts";
import { codeContractQuerySchema, gateBodySchema, gateQuerySchema, type GateBody } from "@/lib/contracts/gate";
import type { GateAgainst } from "@/lib/drift/gate";
import { compareVersions, parseVersion } from "@/lib/drift/semver";
import { ApiError } from "../http/api-error";
import { parseQuery } from "../http/parse-query";
import { readBody } from "../http/read-body";
import { authenticateReader } from "../http/read-auth";
import { readByPost, route } from "../http/route";
import { ensureDriftFold } from "../jobs/drift-fold";
import { getStore } from "../store";

/** Whether the project's drift is folded up to date; a backlog starts folding (the read does not wait). */
async function freshness(store: Store, project: string): Promise<boolean> {
  const { upToDate } = await getDriftFreshness(store, project);
  ensureDriftFold(project, upToDate);
  return upToDate;
}

async function answerGate(store: Store, q: GateBody): Promise<Response> {
  const against: GateAgainst =
    q.against === undefined ? { kind: "predecessor" } : typeof q.against === "string" ? { kind: "release", release: q.against } : { kind: "contract", contract: q.against };
  const base = against.kind === "contract" ? against.contract.release : against.kind === "release" ? against.release : null;
  if (base !== null) {
    // The rules read a comparison forwards; a base that is not older would judge the change backwards.
    const [from, to] = [parseVersion(base), parseVersion(q.release)];
    if (base === q.release || (from && to && compareVersions(from, to) >= 0)) {
      throw new ApiError("bad_request", `against must be an earlier release than ${q.release}; got ${base}`);
    }
  }
  const upToDate = await freshness(store, q.project);
  return Response.json(await getGate(store, { project: q.project, release: q.release, against, upToDate }));
}

/** `GET /api/v1/gate`: a release against its predecessor or a named release. */
export const gateGet = route(async (req: Request) => {
  const q = parseQuery(req, gateQuerySchema);
  const store = await getStore();
  await authenticateReader(req, store, q.project);
  return answerGate(store, q);
});

/** `POST /api/v1/gate`: the same, where `against` may be a code-contract document. */
export const gatePost = readByPost(async (req: Request) => {
  const raw = await readBody(req, ["application/json"]);
  let json: unknown;
  try {
    json = JSON.parse(raw.toString("utf8"));
  } catch {
    throw new ApiError("invalid_json", "body is not valid JSON");
  }
  const parsed = gateBodySchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new ApiError("bad_request", `invalid body: ${formatIssues(parsed.error.issues)}`, issues);
  }
  const store = await getStore();
  await authenticateReader(req, store, parsed.data.project);
  return answerGate(store, parsed.data);
});

/** `GET /api/v1/codes/contract`: a release's code catalogue as a document to commit. */
export const codeContractGet = route(async (req: Request) => {
  const q = parseQuery(req, codeContractQuerySchema);
  const store = await getStore();
  await authenticateReader(req, store, q.project);
  await freshness(store, q.project);
  const contract = await getCodeContract(store, { ...q, now: Date.now() });
  if (!contract) throw new ApiError("not_found", `no tool call of ${q.project} was recorded in release ${q.release}`);
  return Response.json(contract);
});
