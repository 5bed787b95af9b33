import type { Audited } from "@/db/audit/audited-change";
import { addOwnerOfEveryProject } from "@/db/auth/memberships";
import { deleteUserSessions } from "@/db/auth/sessions";
import { setupTokenUsable, spendOpenSetupTokens, useSetupToken } from "@/db/auth/setup-tokens";
import { createUser, findUserByEmail, findUserById, restoreInstanceOwner, type UserRow } from "@/db/auth/users";
import type { Tx } from "@/db/client";
import { linkTokenSchema, type SetupBody } from "@/lib/contracts/auth";
import { config } from "../config";
import { ApiError } from "../http/api-error";
import { verifyThrottled } from "../http/auth-throttle";
import { clientAddress } from "../http/node-server";
import { getStore } from "../store";
import { hashPassword } from "./password";
import { LINK_LIMIT_FACTOR, tokenHash } from "./tokens";

const setupLinkGone = () =>
  new ApiError("not_found", "this setup link was used already, has expired, or was never issued; print a new one with `npm run keys -- setup-link`");

/**
 * Uses a setup link: creates the instance owner, owner of every existing project, audited as
 * `instance.setup` by that account. A link printed by `npm run keys -- setup-link` after setup is
 * how a locked-out admin gets back in: for an existing email it restores that account as an enabled
 * instance owner with the new name and password (its other sessions end). The token is spent in the
 * same transaction, so a link works once even when submitted twice at once, and so is every other
 * open link: one setup ends them all. The password is hashed before the transaction (tens of
 * milliseconds: no slow await inside it).
 */
export async function setupChange(tx: Tx, body: SetupBody, passwordHash: string, now: number): Promise<Audited<UserRow>> {
  if (!(await useSetupToken(tx, tokenHash(body.token), now))) throw setupLinkGone();
  // The other links printed so far (each start before setup printed one) end with this one.
  await spendOpenSetupTokens(tx, now);
  const existing = await findUserByEmail(tx, body.email);
  if (existing) {
    // Whoever got the account locked out may hold its sessions: they end with the old password.
    await restoreInstanceOwner(tx, existing.id, { name: body.name, passwordHash });
    await deleteUserSessions(tx, existing.id);
  }
  const user = existing ? (await findUserById(tx, existing.id))! : await createUser(tx, { email: body.email, name: body.name, passwordHash, instanceOwner: true, now });
  await addOwnerOfEveryProject(tx, user.id, now);
  return {
    result: user,
    audit: { projectId: null, as: { actorUserId: user.id, actorLabel: user.email }, action: "instance.setup", target: user.email, detail: { restored: existing !== null } },
  };
}

/**
 * Whether a setup link's token can still be used (the setup page shows its form only then). Wrong
 * tokens are throttled by token and by the client's address (`verifyThrottled`): a 429 once either
 * failed too often; a valid link always works.
 */
export async function setupLinkUsable(token: string | undefined, client: string): Promise<boolean> {
  if (token === undefined) return false;
  const store = await getStore();
  const usable = await verifyThrottled(
    "setup link",
    { presented: token, client },
    async () => (linkTokenSchema.safeParse(token).success && (await setupTokenUsable(store, tokenHash(token), Date.now())) ? true : null),
    { limitFactor: LINK_LIMIT_FACTOR },
  );
  return usable === true;
}

/**
 * What a setup needs before its transaction: the link checked under the throttle (a guessed link is
 * refused before the slow hash; `setupChange` checks it again as it spends it), and the password's hash.
 */
export async function prepareSetup(req: Request, body: SetupBody): Promise<string> {
  if (!(await setupLinkUsable(body.token, clientAddress(req, config().trustProxy)))) throw setupLinkGone();
  return hashPassword(body.password);
}
