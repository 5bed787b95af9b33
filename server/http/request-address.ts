import { config } from "../config";
import { clientAddress } from "./node-server";

/** The client's address as the audit log records it (honours FAULTLINE_TRUST_PROXY like the throttles). */
export function requestAddress(req: Request): string | null {
  const address = clientAddress(req, config().trustProxy);
  return address === "unknown" || address === "" ? null : address;
}
