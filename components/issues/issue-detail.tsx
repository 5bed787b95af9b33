"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { IssuePatch } from "@/lib/contracts/issues";
import { membersQuery } from "@/lib/query/members";
import { addIssueNote, issueDetailOptions, patchIssue } from "@/lib/query/issues";
import styles from "../alerts/alerts.module.css";
import { GroupIssueFacts, failureGroupHref } from "./group-issue";
import { formatTime, stateLabel } from "./issue-format";

const DAY_MS = 86_400_000;

/** One issue: its state and the decisions to change it, assignee, releases, notes and history. */
export function IssueDetailPanel({ project, id }: { project: string; id: string }) {
  const qc = useQueryClient();
  const { data, error, isPending } = useQuery({ ...issueDetailOptions(project, id), refetchInterval: 5000 });
  const members = useQuery(membersQuery(project));
  const [release, setRelease] = useState("");
  const [note, setNote] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const run = async (send: () => Promise<unknown>) => {
    setProblem(null);
    try {
      await send();
      await qc.invalidateQueries();
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    }
  };
  const decide = (triage: NonNullable<IssuePatch["triage"]>) => run(() => patchIssue(id, { triage }));
  if (isPending) return <p className={styles.muted}>Loading the issue…</p>;
  if (error) return <p role="alert">Could not load the issue: {error.message}</p>;
  const { issue, releases, history, alerts, namedAs } = data;
  const withProject = (path: string, extra: Record<string, string> = {}) => `${path}?${new URLSearchParams({ project, ...extra }).toString()}`;
  return (
    <section className={styles.panel} aria-labelledby="issue-title">
      <h2 id="issue-title" className={styles.subtitle}>
        <Link href={`/tools/${encodeURIComponent(issue.tool)}?project=${encodeURIComponent(project)}`}>{issue.tool}</Link> /{" "}
        {issue.group ? (
          <Link href={failureGroupHref(project, issue.group.key)}>unclassified failure group</Link>
        ) : (
          <Link href={`/codes/${encodeURIComponent(issue.code)}?project=${encodeURIComponent(project)}`}>{issue.code}</Link>
        )}
        :{" "}
        <span data-testid="issue-detail-state">{stateLabel(issue)}</span>
      </h2>
      <div className={styles.actions} role="group" aria-label="Change state">
        <button type="button" className="btn" onClick={() => decide({ state: "resolved", mode: "next_release" })}>
          Resolve in next release
        </button>
        <button type="button" className="btn" onClick={() => decide({ state: "resolved", mode: "now" })}>
          Resolve now
        </button>
        <input aria-label="Fixed in release" placeholder="release" value={release} onChange={(e) => setRelease(e.target.value)} size={10} />
        <button type="button" className="btn" disabled={release.trim() === ""} onClick={() => decide({ state: "resolved", mode: "in_release", release: release.trim() })}>
          Resolve in this release
        </button>
        <button type="button" className="btn" onClick={() => decide({ state: "ignored", mode: "until_date", until: Date.now() + 7 * DAY_MS })}>
          Ignore for 7 days
        </button>
        <button type="button" className="btn" onClick={() => decide({ state: "ignored", mode: "until_count", failures: 100 })}>
          Ignore for 100 more failures
        </button>
        <button type="button" className="btn" onClick={() => decide({ state: "ignored", mode: "until_worse" })}>
          Ignore until it gets worse
        </button>
        {issue.state !== "open" ? (
          <button type="button" className="btn" onClick={() => decide({ state: "open", mode: "open" })}>
            Reopen
          </button>
        ) : null}
      </div>
      <label>
        Assignee{" "}
        <select
          aria-label="Assignee"
          value={issue.assignee?.userId ?? ""}
          onChange={(e) => run(() => patchIssue(id, { assignee: e.target.value || null }))}
        >
          <option value="">nobody</option>
          {(members.data?.members ?? []).map((m) => (
            <option key={m.userId} value={m.userId}>
              {m.name || m.email}
            </option>
          ))}
        </select>
      </label>
      {problem ? <p role="alert">{problem}</p> : null}
      <p className={styles.muted}>
        {issue.failures} failures in {issue.runs} runs, {issue.unrecovered} unrecovered, {issue.retries} retries; seen {formatTime(issue.firstSeen)} to {formatTime(issue.lastSeen)} UTC.
      </p>
      {issue.group ? <GroupIssueFacts project={project} group={issue.group} namedAs={namedAs} /> : null}
      <nav className={styles.actions} aria-label="About this issue">
        {/* Runs and drift filter by code, which a group's failures do not have: the group's row on the Codes page lists its runs. */}
        {issue.group ? null : (
          <>
            <Link href={withProject("/runs", { tool: issue.tool, code: issue.code, hasErrors: "1" })}>runs with it →</Link>
            <Link href={withProject("/drift", { tool: issue.tool, code: issue.code })}>drift findings →</Link>
          </>
        )}
        <Link href={withProject("/alerts/history")}>alert history →</Link>
        {issue.releases.last ? <Link href={withProject(`/releases/${encodeURIComponent(issue.releases.last)}`)}>release {issue.releases.last} →</Link> : null}
      </nav>
      {alerts.length > 0 ? (
        <ul aria-label="Alerts about this issue" className={styles.attempts} data-testid="issue-alerts">
          {alerts.map((a) => (
            <li key={a.id}>
              {formatTime(a.at)} UTC · {a.status} · {a.ruleName}: {a.value}
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.muted}>No alert has named this issue.</p>
      )}
      <table className={styles.table} aria-label="Releases">
        <thead>
          <tr>
            <th scope="col">Release</th>
            <th scope="col">Failures</th>
            <th scope="col">First / last seen</th>
          </tr>
        </thead>
        <tbody>
          {releases.map((r) => (
            <tr key={r.release}>
              <td>
                <Link href={withProject(`/releases/${encodeURIComponent(r.release)}`)}>{r.release}</Link>
              </td>
              <td>{r.failures}</td>
              <td>
                {formatTime(r.firstSeen)} / {formatTime(r.lastSeen)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        className={styles.form}
        onSubmit={(e) => {
          e.preventDefault();
          const text = note.trim();
          if (text) void run(() => addIssueNote(id, text)).then(() => setNote(""));
        }}
      >
        <label>
          Note
          <textarea value={note} onChange={(e) => setNote(e.target.value)} maxLength={2000} />
        </label>
        <button type="submit" className="btn" disabled={note.trim() === ""}>
          Add note
        </button>
      </form>
      <ol aria-label="History" className={styles.attempts}>
        {history.map((h, k) => (
          <li key={k}>
            {formatTime(h.at)} UTC, {h.actor}: {h.kind === "note" ? `“${h.detail}”` : h.detail}
          </li>
        ))}
      </ol>
    </section>
  );
}
