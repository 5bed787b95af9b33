import type { z } from "zod";
import type { AuditActor } from "@/db/audit/audit-actor";
import { auditedChange, type Audited } from "@/db/audit/audited-change";
import type { Tx } from "@/db/client";
import type { ProjectRole } from "@/lib/auth/roles";
import { formatIssues } from "@/lib/contracts";
import { actorOf, callerOf, checkProjectRole, isInstanceLevel, requireRole, signInRequired, type Caller } from "../auth/access";
import { getStore } from "../store";
import { ApiError } from "./api-error";
import { checkCsrf, checkSameOrigin } from "./mutation-guard";
import { readBody } from "./read-body";
import { requestAddress } from "./request-address";
import { route } from "./route";

/**
 * The writes any visitor may send, each for a named reason: the body or the link is the credential
 * (a password, a setup link, an invitation link), or there is nothing to protect (signing out ends
 * whatever session the request carries). test/unit/server/write-routes.test.ts lists them.
 */
export type PublicWrite = "sign-in" | "setup-link" | "invitation-link" | "sign-out";

/** The role a change needs, fixed or from its body (muting a rule is a member's right, editing it an admin's). */
export type Minimum = ProjectRole | ((body: unknown) => ProjectRole);

/**
 * Who may make a change, besides `{ anyone }` (see `PublicWrite`):
 * - `"signed-in"`: any caller; `"instance-owner"`: instance owners, the admin secret, setup mode;
 * - `{ project: "path" | "body", minimum }`: the project of the `:project` segment or of the body's
 *   `project` field, at least `minimum` there (404 for a project the caller cannot see, 403 below);
 * - `{ row, notFound, minimum }`: the project of the row the path names (404 `notFound` when there
 *   is no such row or the caller cannot see its project).
 */
export type WriteAccess<P extends string, Row> = "signed-in" | "instance-owner" | ProjectAccess<P, Row>;

/** The access of a change about one project (see `WriteAccess`). */
export type ProjectAccess<P extends string, Row> =
  | { project: "path" | "body"; minimum: Minimum }
  | { row: (params: Readonly<Record<P, string>>) => Promise<Row | null>; notFound: (params: Readonly<Record<P, string>>) => string; minimum: Minimum };

type BodyOf<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a change's steps see: the request, its checked body and path, the caller, their role in the project, the row, the time. */
export interface WriteContext<B, P extends string, Row, C extends Caller | null, Role extends ProjectRole | null = ProjectRole | null> {
  req: Request;
  body: B;
  params: Readonly<Record<P, string>>;
  caller: C;
  /** The caller's role in the project the change is about (null for changes about no project). */
  role: Role;
  /** The row the path names (`{ row }` access), read before the change. */
  row: Row;
  /** The request's time: the change's and its audit entries'. */
  now: number;
}

/** One write endpoint, declared once (`access` apart: see `defineMutation`'s two forms). */
export interface MutationSpec<S extends z.ZodType | undefined, P extends string, Row, C extends Caller | null, Prep, R, Role extends ProjectRole | null = ProjectRole | null> {
  /** The names of the path's dynamic segments (`["project", "prefix"]`). */
  params?: readonly P[];
  /** The JSON body's contract; a change without one reads no body (a DELETE). */
  body?: S;
  /** Work before the transaction: slow (a password hash) or a check that reads (a webhook URL). */
  prepare?: (ctx: WriteContext<BodyOf<S>, P, Row, C, Role>) => Prep | Promise<Prep>;
  /** The change, on the transaction that also inserts the audit entries it answers. */
  change: (tx: Tx, ctx: WriteContext<BodyOf<S>, P, Row, C, Role> & { prepared: Prep }) => Promise<Audited<R>>;
  /** The answer once committed (default: `R` as JSON with `status`); may throw a refusal that was audited. */
  respond?: (result: R, ctx: WriteContext<BodyOf<S>, P, Row, C, Role> & { prepared: Prep }) => Response | Promise<Response>;
  /** The status of the default answer (200). */
  status?: number;
}

/** A route handler built by `defineMutation`. */
export type MutationRoute<P extends string> = (req: Request, ctx: { params: Promise<Record<P, string>> }) => Promise<Response>;

/** The parsed JSON body, or `invalid` when it is not JSON (refused once access is checked, if it can be). */
async function readJson(req: Request): Promise<{ ok: true; value: unknown } | { ok: false }> {
  const raw = await readBody(req, ["application/json"]);
  try {
    return { ok: true, value: JSON.parse(raw.toString("utf8")) };
  } catch {
    return { ok: false };
  }
}

function validate<S extends z.ZodType>(schema: S, json: { ok: true; value: unknown } | { ok: false }): z.output<S> {
  if (!json.ok) throw new ApiError("invalid_json", "body is not valid JSON");
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new ApiError("bad_request", `invalid body: ${formatIssues(parsed.error.issues)}`, issues);
  }
  return parsed.data;
}

const minimumFor = (minimum: Minimum, body: unknown): ProjectRole => (typeof minimum === "function" ? minimum(body) : minimum);
const projectField = (body: unknown): string | null =>
  typeof body === "object" && body !== null && typeof (body as { project?: unknown }).project === "string" ? (body as { project: string }).project : null;

/** The audit columns of a change made with this request. */
const actorOfRequest = (req: Request, caller: Caller | null): AuditActor => ({
  ...(caller ? actorOf(caller) : { actorUserId: null, actorLabel: "anonymous" }),
  address: requestAddress(req),
});

/**
 * Defines a write endpoint: the one way a change is made over HTTP. In this order: the same-origin
 * check and, for a session, its CSRF token (403); the caller (401); the caller's role for the
 * project (404 for a project they cannot see, 403 for too low a role), so a caller without rights
 * learns nothing about the body; the body against its contract (400); `prepare`; then `change` and
 * the audit entries it answers in ONE transaction (`auditedChange`, db/); then the answer, or any
 * error, in the envelope. Nothing here can be left out: a change must answer its audit entries (or
 * `noChange(reason)`), and there is no option to skip the CSRF check.
 */
export function defineMutation<S extends z.ZodType | undefined = undefined, P extends string = never, Row = never, Prep = undefined, R = unknown>(
  spec: MutationSpec<S, P, Row, Caller | null, Prep, R, null> & { access: { anyone: PublicWrite } },
): MutationRoute<P>;
export function defineMutation<S extends z.ZodType | undefined = undefined, P extends string = never, Row = never, Prep = undefined, R = unknown>(
  spec: MutationSpec<S, P, Row, Caller, Prep, R, null> & { access: "signed-in" | "instance-owner" },
): MutationRoute<P>;
export function defineMutation<S extends z.ZodType | undefined = undefined, P extends string = never, Row = never, Prep = undefined, R = unknown>(
  spec: MutationSpec<S, P, Row, Caller, Prep, R, ProjectRole> & { access: ProjectAccess<P, Row> },
): MutationRoute<P>;
export function defineMutation<S extends z.ZodType | undefined, P extends string, Row, Prep, R>(
  spec: MutationSpec<S, P, Row, Caller, Prep, R, never> & { access: { anyone: PublicWrite } | WriteAccess<P, Row> },
): MutationRoute<P> {
  const access = spec.access;
  return route(async (req: Request, routeCtx: { params: Promise<Record<P, string>> }) => {
    checkSameOrigin(req);
    await checkCsrf(req);
    const caller = await callerOf(req);
    const isPublic = typeof access === "object" && "anyone" in access;
    if (caller === null && !isPublic) throw signInRequired();
    if (access === "instance-owner" && !isInstanceLevel(caller!)) throw new ApiError("forbidden", "only an instance owner may do this");
    const params = ((await routeCtx?.params) ?? {}) as Readonly<Record<P, string>>;

    // Membership first (404), then the role (403), then the body (400). Only a body that names the
    // project is read before the membership check: without it there is nothing to check.
    let project: string | null = null;
    let notFound: string | undefined;
    let row = undefined as Row;
    let json: { ok: true; value: unknown } | { ok: false } | undefined;
    const raw = () => (json?.ok ? json.value : undefined);
    if (typeof access === "object" && "project" in access) {
      if (access.project === "body" && spec.body) json = await readJson(req);
      project = access.project === "path" ? ((params as Record<string, string>).project ?? null) : projectField(raw());
    } else if (typeof access === "object" && "row" in access) {
      notFound = access.notFound(params);
      const found = await access.row(params);
      const rowProject = (found as { project?: unknown } | null)?.project;
      if (found === null || typeof rowProject !== "string") throw new ApiError("not_found", notFound);
      [row, project] = [found, rowProject];
    }
    let role = project === null ? null : await checkProjectRole(caller!, project, "viewer", notFound);
    if (spec.body && json === undefined) json = await readJson(req);
    const minimum = typeof access === "object" && "minimum" in access ? access.minimum : null;
    if (minimum !== null && role !== null) requireRole(role, minimumFor(minimum, raw()), project!);
    const body = (spec.body ? validate(spec.body, json!) : undefined) as BodyOf<S>;
    if (minimum !== null) {
      // The project the checked body names is the one the change is about (the unchecked body may have named none).
      if (typeof access === "object" && "project" in access && access.project === "body" && projectField(body) !== project) [project, role] = [projectField(body), null];
      if (project === null) throw new Error("a project-scoped write whose checked body names no project");
      role ??= await checkProjectRole(caller!, project, "viewer", notFound);
      requireRole(role, minimumFor(minimum, body), project);
    }

    const now = Date.now();
    // The overloads type the caller (null only for `{ anyone }` writes) and the role (set for project writes).
    const ctx = { req, body, params, caller: caller as Caller, role: role as never, row, now };
    const prepared = (spec.prepare ? await spec.prepare(ctx) : undefined) as Prep;
    const full = { ...ctx, prepared };
    const result = await auditedChange(await getStore(), actorOfRequest(req, caller), now, (tx) => spec.change(tx, full));
    return spec.respond ? spec.respond(result, full) : Response.json(result, { status: spec.status ?? 200 });
  });
}
