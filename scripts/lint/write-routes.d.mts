// Types of write-routes.mjs (plain JS so that eslint.config.mjs can load it).

/** One write method of an app route file, and what it is built with. */
export interface WriteRoute {
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  /** `/api/v1/x/[id]`. */
  route: string;
  /** `server/routes/<module>#<export>`, or the factory's name. */
  handler: string;
  /** `mutation` (defineMutation) or a key of NOT_MUTATIONS. */
  kind: "mutation" | "ingestRoute" | "readByPost";
}

/** A write method not built with defineMutation. */
export interface WriteRouteProblem {
  method: string;
  message: string;
  start: number;
  end: number;
}

export interface WriteRouteCheck {
  writes: WriteRoute[];
  problems: WriteRouteProblem[];
}

export type ModuleReader = (specifier: string) => { file: string; source: string } | null;

export const WRITE_METHODS: readonly string[];
export const NOT_MUTATIONS: Readonly<Record<"ingestRoute" | "readByPost", string>>;
export function templateOf(file: string): string;
export function checkRouteFile(file: string, source: string, readModule: ModuleReader): WriteRouteCheck;
export function moduleReader(root: string): ModuleReader;
export function checkWriteRoutes(root: string): WriteRouteCheck;
export const writeRoutesPlugin: { rules: Record<string, unknown> };
