import Link from "next/link";
import type { FindingGroup } from "@/lib/charts/drift-groups";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { formatTime } from "@/lib/charts/time-format";
import { CodeText } from "./code-text";
import { BUMP_LABEL, KIND_LABEL, VERDICT_LABEL } from "./labels";
import { SelfCorrectionSide } from "./self-correction-side";
import { SignatureSide } from "./signature-side";
import { IssueLink } from "@/components/issues/issue-links";
import styles from "./drift.module.css";

/** `path?project=…` unless the project is the default one. */
export const withProject = (path: string, project: string | undefined, extra: Record<string, string> = {}) => {
  const qs = new URLSearchParams({ ...(project && project !== "default" ? { project } : {}), ...extra }).toString();
  return qs ? `${path}?${qs}` : path;
};

/** One code of one tool between two releases: every finding about it, over one before/after pair. */
export function FindingCard({ group, project }: { group: FindingGroup; project: string | undefined }) {
  const f = group.lead;
  const { zone } = useTimeZone();
  const day = (t: number | undefined) => (t === undefined ? null : formatTime(t, zone));
  const kinds = [...new Set(group.findings.map((x) => x.kind))];
  const fromSeen = day(f.before?.firstSeen ?? f.selfCorrection?.before.firstSeen);
  const toSeen = day(f.after?.firstSeen ?? f.selfCorrection?.after.firstSeen);
  return (
    <li className={styles.card} data-severity={f.severity} data-testid="drift-finding" data-kind={kinds.join(" ")} data-findings={group.findings.length}>
      <div className={styles.meta}>
        <span className={styles.pill} data-severity={f.severity}>
          {f.severity}
        </span>
        {kinds.map((k) => (
          <span key={k} className={styles.pill}>
            {KIND_LABEL[k]}
          </span>
        ))}
        <span className={styles.pill} data-verdict={f.verdict}>
          {VERDICT_LABEL[f.verdict]}
        </span>
        <span className={styles.muted}>
          <span className={styles.mono}>{f.tool}</span> · {f.fromRelease} → {f.toRelease} · {BUMP_LABEL[f.bump]}
        </span>
      </div>
      <div className={styles.dates} data-testid="finding-dates">
        {f.fromRelease} first seen {fromSeen ?? "— (code absent)"} · {f.toRelease} first seen {toSeen ?? "— (code absent)"}
        {f.after ? ` · last seen ${day(f.after.lastSeen)}` : ""}
      </div>
      {group.findings.length === 1 ? (
        <p className={styles.sentence}>
          <CodeText text={f.sentence} />
        </p>
      ) : (
        <ul className={styles.sentences}>
          {group.findings.map((x) => (
            <li key={x.id}>
              <CodeText text={x.sentence} />
            </li>
          ))}
        </ul>
      )}
      {f.ruleNotes && f.ruleNotes.length > 0 ? (
        <ul className={styles.muted} data-testid="finding-rule-notes" aria-label="Classification rule changes">
          {f.ruleNotes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
      <div className={styles.findingLinks}>
        <Link href={withProject(`/tools/${encodeURIComponent(f.tool)}`, project, { code: f.code })} data-testid="finding-tool-link">
          tool {f.tool} →
        </Link>
        <Link href={withProject(`/codes/${encodeURIComponent(f.code)}`, project)} data-testid="finding-code-link">
          code {f.code} →
        </Link>
        {f.renamedTo ? <Link href={withProject(`/codes/${encodeURIComponent(f.renamedTo)}`, project)}>code {f.renamedTo} →</Link> : null}
        <IssueLink project={project ?? "default"} tool={f.tool} code={f.renamedTo ?? f.code} testId="finding-issue-link" />
        <Link href={withProject(`/releases/${encodeURIComponent(f.toRelease)}`, project)} data-testid="finding-release-link">
          release {f.toRelease} →
        </Link>
      </div>
      {f.selfCorrection ? (
        <div className={styles.sides}>
          <SelfCorrectionSide
            title={`Before: ${f.fromRelease}`}
            side={f.selfCorrection.before}
            exampleRunIds={f.exampleRuns.before}
            examplesAre="runs that recovered"
            project={project}
          />
          <SelfCorrectionSide
            title={`After: ${f.toRelease}`}
            side={f.selfCorrection.after}
            exampleRunIds={f.exampleRuns.after}
            examplesAre="runs that did not recover"
            project={project}
          />
        </div>
      ) : (
      <div className={styles.sides}>
        <SignatureSide
          title={`Before: ${f.code} in ${f.fromRelease}`}
          signature={f.before}
          absent={`${f.code} was not emitted by ${f.tool} in ${f.fromRelease}.`}
          tool={f.tool}
          release={f.fromRelease}
          exampleRunIds={f.exampleRuns.before}
          project={project}
        />
        <SignatureSide
          title={`After: ${f.renamedTo ?? f.code} in ${f.toRelease}`}
          signature={f.after}
          absent={`${f.code} was not emitted by ${f.tool} in ${f.toRelease}.`}
          tool={f.tool}
          release={f.toRelease}
          exampleRunIds={f.exampleRuns.after}
          project={project}
        />
      </div>
      )}
    </li>
  );
}
