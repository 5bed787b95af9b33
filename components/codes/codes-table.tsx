import Link from "next/link";
import { OutcomeSwatch } from "@/components/charts/fill-patterns";
import { countColumn, DataTable, NameCell, numberColumn, type Column, type SortState } from "@/components/data-table";
import { DriftBadge } from "@/components/drift/drift-badge";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { formatCount, formatPct } from "@/lib/charts/format";
import { formatTime } from "@/lib/charts/time-format";
import { outcomeStyle } from "@/lib/charts/outcomes";
import { selfCorrectionText } from "@/lib/charts/rate-text";
import { MIN_TOLD_SAMPLE } from "@/lib/contracts/told-step";
import type { CodeRow } from "@/lib/contracts/codes";
import type { useUrlState } from "@/lib/query/use-url-state";
import { TwoMeanings } from "./two-meanings";

export function CodesTable({ rows, pending, sort, project, hrefWith, update }: {
  rows: CodeRow[] | undefined;
  pending: boolean;
  sort: SortState;
  project: string | undefined;
} & Pick<ReturnType<typeof useUrlState>, "hrefWith" | "update">) {
  const { zone } = useTimeZone();
  const columns: Column<CodeRow>[] = [
    {
      id: "code",
      header: "code",
      sort: { key: "code", first: "asc" },
      align: "text",
      cellClassName: "name",
      cell: (c) => (
        <NameCell
          href={hrefWith(`/codes/${encodeURIComponent(c.code)}`, { sort: undefined, dir: undefined })}
          marks={
            <>
              <DriftBadge code={c.code} project={project} />
              <TwoMeanings row={c} />
            </>
          }
        >
          {c.code}
        </NameCell>
      ),
    },
    { id: "errorClass", header: "error class", align: "text", priority: 2, cell: (c) => c.errorClasses.join(", ") || "—" },
    numberColumn("retryable", "retryable", (c) => c.retryableShare, (v: number | null) => formatPct(v, 0), { sort: { key: "retryable_share" }, priority: 3 }),
    countColumn("failures", "attempts not ok", (c) => c.failures, { sort: { key: "failures" }, title: "attempts with this code whose outcome was not ok" }),
    {
      id: "told",
      header: "recovered after told",
      priority: 3,
      title: "share of errors with this code surfaced to the model after which the model recovered (all retained history; the tool and release filters apply)",
      align: "num",
      cell: (c) => {
        const t = selfCorrectionText(c.told ?? { surfaced: 0, decided: 0, recovered: 0, selfCorrection: null }, MIN_TOLD_SAMPLE);
        return (
          <span title={t.reason ?? `recovered after ${c.told?.recovered} of ${c.told?.decided} decided errors`} data-testid="code-told" data-rate={c.told?.selfCorrection ?? ""}>
            {t.text}
            {t.lowSample ? <span className="sub"> n={c.told?.decided}</span> : null}
          </span>
        );
      },
    },
    {
      id: "outcomes",
      header: "outcomes (attempts)",
      align: "text",
      cellClassName: "text wrap",
      cell: (c) => (
        <span className="chips">
          {c.outcomes.map((o) => (
            <button key={o.outcome} type="button" className="chip" style={{ fontFamily: "var(--font)" }} onClick={() => update({ outcome: o.outcome })}>
              <OutcomeSwatch outcome={o.outcome} /> {outcomeStyle(o.outcome).label} {formatCount(o.attempts)}
            </button>
          ))}
        </span>
      ),
    },
    {
      id: "tools",
      header: "tools",
      sort: { key: "tools" },
      align: "text",
      cellClassName: "text wrap",
      priority: 2,
      cell: (c) => (
        <span className="chips">
          {c.tools.map((t) => (
            <Link key={t} className="chip" href={hrefWith(`/tools/${encodeURIComponent(t)}`, { sort: undefined, dir: undefined, code: c.code, q: undefined, offset: undefined })}>
              {t}
            </Link>
          ))}
          {c.toolCount > c.tools.length && <span className="sub">and {c.toolCount - c.tools.length} more</span>}
        </span>
      ),
    },
    {
      id: "releases",
      header: "releases",
      align: "text",
      cellClassName: "text mono wrap",
      priority: 2,
      cell: (c) => `${c.releases.join(", ")}${c.releaseCount > c.releases.length ? ` and ${c.releaseCount - c.releases.length} more` : ""}`,
    },
    numberColumn("firstSeen", "first seen", (c) => c.firstSeen, (t) => formatTime(t, zone), { sort: { key: "first_seen" }, priority: 3 }),
    numberColumn("lastSeen", "last seen", (c) => c.lastSeen, (t) => formatTime(t, zone), { sort: { key: "last_seen" } }),
  ];
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(c) => c.code}
      rowAttributes={(c) => ({ "data-code": c.code })}
      testId="codes-table"
      chooser="codes"
      sort={sort}
      placeholder={pending ? "Loading codes…" : null}
      empty="No codes seen in this range."
    />
  );
}
