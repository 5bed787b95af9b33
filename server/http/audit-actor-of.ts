import type { AuditActor } from "@/db/audit/audit-actor";
import { actorOf, type Caller } from "../auth/access";
import { requestAddress } from "./request-address";

/** The audit columns of a change a caller makes with this request: who, and from which address. */
export function auditActorOf(req: Request, caller: Caller): AuditActor {
  return { ...actorOf(caller), address: requestAddress(req) };
}
