import { recordAudit } from "@/db/audit/record-audit";
import { addOwnerOfEveryProject } from "@/db/auth/memberships";
import { deleteUserSessions } from "@/db/auth/sessions";
import { setupTokenUsable, spendOpenSetupTokens, useSetupToken } from "@/db/auth/setup-tokens";
import { createUser, findUserByEmail, findUserById, restoreInstanceOwner, type UserRow } from "@/db/auth/users";
import { linkTokenSchema, type SetupBody } from "@/lib/contracts/auth";
import { ApiError } from "../http/api-error";
import { requestAddress } from "../http/request-address";
import { getStore } from "../store";
import { hashPassword } from "./password";
import { tokenHash } from "./tokens";

/**
 * Uses a setup link: creates the instance owner, owner of every existing project. A link printed by
 * `npm run keys -- setup-link` after setup is how a locked-out admin gets back in: for an existing
 * email it restores that account as an enabled instance owner with the new name and password (its
 * other sessions end). The token is spent in the same transaction, so a link works once even when
 * submitted twice at once, and so is every other open link: one setup ends them all.
 */
export async function completeSetup(req: Request, body: SetupBody): Promise<UserRow> {
  // Hashing takes tens of milliseconds: before the transaction, which then holds no slow await.
  const passwordHash = await hashPassword(body.password);
  const now = Date.now();
  const store = await getStore();
  return store.transaction(async (tx) => {
    if (!(await useSetupToken(tx, tokenHash(body.token), now))) {
      throw new ApiError("not_found", "this setup link was used already, has expired, or was never issued; print a new one with `npm run keys -- setup-link`");
    }
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
    await recordAudit(tx, {
      projectId: null,
      actorUserId: user.id,
      actorLabel: user.email,
      action: "instance.setup",
      target: user.email,
      detail: { restored: existing !== null },
      address: requestAddress(req),
      at: now,
    });
    return user;
  });
}

/** Whether a setup link's token can still be used (the setup page shows its form only then). */
export async function setupLinkUsable(token: string | undefined): Promise<boolean> {
  if (token === undefined || !linkTokenSchema.safeParse(token).success) return false;
  return setupTokenUsable(await getStore(), tokenHash(token), Date.now());
}
