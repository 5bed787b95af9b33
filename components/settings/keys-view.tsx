"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { QueryError } from "@/components/dashboard/query-error";
import type { ProjectRole } from "@/lib/auth/roles";
import type { KeyCreated } from "@/lib/contracts/keys";
import { auditLogKeys, projectDetailQuery, projectKeysQuery } from "@/lib/query/settings";
import { CreatedKey } from "./created-key";
import { KeysTable } from "./keys-table";
import { NewKeyForm } from "./new-key-form";
import { ProjectTabs } from "./project-tabs";
import styles from "./settings.module.css";

/** A project's keys for its admins: create one (shown once), see when each was last used, revoke. */
export function KeysView({ project, role }: { project: string; role: ProjectRole }) {
  const qc = useQueryClient();
  const detail = useQuery(projectDetailQuery(project));
  const keys = useQuery(projectKeysQuery(project));
  const [created, setCreated] = useState<KeyCreated | null>(null);
  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: projectKeysQuery(project).queryKey }),
      qc.invalidateQueries({ queryKey: projectDetailQuery(project).queryKey }),
      qc.invalidateQueries({ queryKey: auditLogKeys(project) }),
    ]);
  const archived = detail.data ? detail.data.archivedAt !== null : false;
  return (
    <>
      <p className="crumbs">
        <Link href="/settings">Settings</Link> / <Link href="/settings/projects">Projects</Link> /{" "}
        <Link href={`/settings/projects/${encodeURIComponent(project)}`}>{detail.data?.name ?? project}</Link>
      </p>
      <div className="page-head">
        <h1>Keys</h1>
        <span className="sub">
          ingest keys send data to <span className={styles.mono}>{project}</span>; read keys let CI read its release gate and code contract
        </span>
      </div>
      <ProjectTabs project={project} role={role} current="/keys" />
      {created && <CreatedKey created={created} onDone={() => setCreated(null)} />}
      {archived ? (
        <p className="panel">This project is archived: its keys cannot send data, and new keys cannot be created until an owner restores it.</p>
      ) : (
        <NewKeyForm
          project={project}
          onCreated={async (key) => {
            setCreated(key);
            await refresh();
          }}
        />
      )}
      {keys.error && <QueryError error={keys.error} />}
      <section className="panel table-wrap" aria-labelledby="keys-title">
        <h2 id="keys-title">All keys</h2>
        {keys.isPending ? (
          <p className="empty-state">Loading keys…</p>
        ) : !keys.data ? null : keys.data.keys.length === 0 ? (
          <p className="empty-state">No keys yet: create one above to start sending data.</p>
        ) : (
          <KeysTable project={project} keys={keys.data.keys} onRevoked={refresh} />
        )}
      </section>
    </>
  );
}
