import Link from "next/link";
import { pageCaller } from "@/server/auth/page-caller";
import { SignInFirst } from "../page-guards";

export const dynamic = "force-dynamic";
export const metadata = { title: "Settings · Faultline" };

export default async function SettingsPage() {
  if (!(await pageCaller())) return <SignInFirst />;
  return (
    <>
      <div className="page-head">
        <h1>Settings</h1>
      </div>
      <section className="panel" aria-labelledby="settings-projects">
        <h2 id="settings-projects">
          <Link href="/settings/projects">Projects</Link>
        </h2>
        <p className="note">Your projects and your role in each. Per project: rename, archive or restore it, manage its ingest and read keys, and read its audit log.</p>
      </section>
    </>
  );
}
