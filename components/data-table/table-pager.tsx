"use client";

import { useEffect, useState } from "react";
import type { PageInfo } from "@/lib/contracts/paging";
import type { SearchKey } from "@/lib/query/search";
import { PageSteps } from "./page-steps";

const SEARCH_DELAY_MS = 300;

/**
 * Name search and page steps of a table the server pages (tools, codes): the URL keeps `q` and
 * `offset`, so a page is a link. Says how many rows matched, so a cut list never passes for a whole one.
 */
export function TablePager({
  page,
  noun,
  one,
  q,
  update,
}: {
  page: PageInfo | undefined;
  /** What the rows are, plural ("tools") and singular ("tool"). */
  noun: string;
  one: string;
  q: string | undefined;
  update: (patch: Partial<Record<SearchKey, string | undefined>>) => void;
}) {
  const [text, setText] = useState(q ?? "");
  const [seen, setSeen] = useState(q);
  // Back/forward change the URL under the input: follow it (during render, React's way to reset state from a prop).
  if (q !== seen) {
    setSeen(q);
    if ((q ?? "") !== text.trim()) setText(q ?? "");
  }
  useEffect(() => {
    if (text.trim() === (q ?? "")) return;
    const timer = setTimeout(() => update({ q: text.trim() || undefined, offset: undefined }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, q, update]);
  const go = (offset: number) => update({ offset: offset > 0 ? String(offset) : undefined });
  return (
    <div className="table-pager">
      <label>
        <span className="sr-only">Search {noun} by name</span>
        <input type="search" value={text} placeholder={`Search ${noun}…`} onChange={(e) => setText(e.target.value)} name="q" />
      </label>
      <span className="sub" aria-live="polite">
        {describePage(page, noun, one, q)}
      </span>
      {page && page.total > page.limit && <PageSteps page={page} go={go} label={`Pages of ${noun}`} />}
      {page && page.total > 0 && page.offset >= page.total && (
        <button type="button" className="btn" onClick={() => go(0)}>
          First page
        </button>
      )}
    </div>
  );
}

const count = (n: number) => n.toLocaleString("en-US");

/** "1–100 of 260 codes", "1 tool", "no codes matching “x”", or where an offset points past the end. */
function describePage(page: PageInfo | undefined, noun: string, one: string, q: string | undefined): string {
  if (page === undefined) return "…";
  if (page.total === 0) return `no ${noun}${q ? ` matching “${q}”` : ""}`;
  if (page.offset >= page.total) return `past the last of ${count(page.total)} ${page.total === 1 ? one : noun}`;
  const first = page.offset + 1;
  const last = Math.min(page.offset + page.limit, page.total);
  if (first === 1 && last === page.total) return `${count(page.total)} ${page.total === 1 ? one : noun}`;
  return `${count(first)}–${count(last)} of ${count(page.total)} ${noun}`;
}
