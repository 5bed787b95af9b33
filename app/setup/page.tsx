import type { Metadata } from "next";
import { SetupForm } from "@/components/auth/setup-form";
import styles from "@/components/auth/auth.module.css";
import { pageClientAddress } from "@/server/auth/page-caller";
import { setupLinkUsable } from "@/server/auth/setup";
import { ApiError } from "@/server/http/api-error";
import { SETUP_LINK_GONE } from "../missing-messages";
import { notFoundBecause } from "../page-guards";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Set up · Faultline" };

export default async function SetupPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).token;
  const token = Array.isArray(raw) ? raw[0] : raw;
  // A throttled guess (429) is answered like any unusable link.
  const usable = await setupLinkUsable(token, await pageClientAddress()).catch((error: unknown) => {
    if (error instanceof ApiError) return false;
    throw error;
  });
  if (token === undefined || !usable) notFoundBecause(SETUP_LINK_GONE);
  return (
    <section className={styles.card} aria-labelledby="setup-title">
      <h1 id="setup-title">Create the owner account</h1>
      <p className={styles.muted}>
        The instance owner creates projects and is owner of every project. Others join later through invitation links from a project&apos;s members page.
      </p>
      <SetupForm token={token} />
    </section>
  );
}
