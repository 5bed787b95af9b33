import { getAlertReceiver } from "@/db/alerts/receivers";
import type { Store } from "@/db/client";
import type { AlertReceiver } from "@/lib/contracts/alerts";
import { checkProjectRole, requireCaller, type Caller } from "../auth/access";
import { ApiError } from "../http/api-error";
import { getStore } from "../store";

/**
 * The receiver a `/receivers/:id/…` request names, for an admin of its project: a malformed or
 * unknown id, and a receiver of a project the caller does not administer, are the same 404.
 */
export async function receiverForAdmin(req: Request, ctx: { params: Promise<{ id: string }> }): Promise<{ caller: Caller; store: Store; receiver: AlertReceiver & { secret: string } }> {
  const raw = (await ctx.params).id;
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw new ApiError("not_found", `no receiver ${raw}`);
  const caller = await requireCaller(req);
  const store = await getStore();
  const receiver = await getAlertReceiver(store, Number(raw));
  if (!receiver) throw new ApiError("not_found", `no receiver ${raw}`);
  await checkProjectRole(caller, receiver.project, "admin", `no receiver ${raw}`);
  return { caller, store, receiver };
}
