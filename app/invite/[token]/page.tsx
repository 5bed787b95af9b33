import type { Metadata } from "next";
import { InviteView } from "@/components/auth/invite-view";
import styles from "@/components/auth/auth.module.css";
import type { InvitationInfo } from "@/lib/contracts/auth";
import { usableInvitation } from "@/server/auth/invitations";
import { pageCaller, pageClientAddress } from "@/server/auth/page-caller";
import { ApiError } from "@/server/http/api-error";
import { notFoundBecause } from "../../page-guards";
import { INVITATION_GONE } from "../../missing-messages";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Invitation · Faultline" };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const found = await usableInvitation(token, await pageClientAddress()).catch((error: unknown) => {
    if (error instanceof ApiError) return null;
    throw error;
  });
  if (!found) notFoundBecause(INVITATION_GONE);
  const info: InvitationInfo = { projectId: found.projectId, projectName: found.projectName, role: found.role, email: found.email, invitedBy: found.invitedBy, expiresAt: found.expiresAt };
  const caller = await pageCaller();
  return (
    <section className={styles.card} aria-labelledby="invite-title">
      <h1 id="invite-title">Join {info.projectName}</h1>
      <p className={styles.muted}>
        {info.invitedBy ? `${info.invitedBy} invites you` : "You are invited"} to the project <strong>{info.projectName}</strong> as <strong>{info.role}</strong>.
      </p>
      <InviteView token={token} info={info} signedInAs={caller?.kind === "user" ? caller.email : null} />
    </section>
  );
}
