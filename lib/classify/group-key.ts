import { sha256Hex } from "@/lib/contracts/sha256";
import { toldShape } from "@/lib/drift/told-shape";

/** What a failure group is keyed by; its parts are shown on the Codes page. */
export interface GroupParts {
  tool: string;
  errorType: string | null;
  /** The message with numbers, ids and quoted values masked, as told texts are shaped. */
  shape: string;
  httpStatus: number | null;
}

/** The group parts of an unclassified failure. */
export function groupParts(f: { tool: string; errorType: string | null; message: string | null; httpStatus: number | null }): GroupParts {
  return { tool: f.tool, errorType: f.errorType, shape: f.message === null ? "" : toldShape(f.message, null), httpStatus: f.httpStatus };
}

/** The stored key of a group: 16 hex characters of the SHA-256 of its parts (unit-separated). */
export function groupKeyOf(p: GroupParts): string {
  return sha256Hex([p.tool, p.errorType ?? "", p.shape, p.httpStatus === null ? "" : String(p.httpStatus)].join("\u001f")).slice(0, 16);
}
