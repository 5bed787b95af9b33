"use client";

import { useEffect, useState } from "react";
import type { PageInfo } from "@/lib/contracts/paging";
import type { SearchKey } from "@/lib/query/search";

const SEARCH_DELAY_MS = 300;

/**
 * Name search and page steps of a table the server pages (tools, codes): the URL keeps `q` and
 * `offset`, so a page is a link. Says how many rows matched, so a cut list never passes for a whole one.
 */
export function TablePager({
  page,
  noun,
  q,
  update,
}: {
  page: PageInfo | undefined;
  noun: string;
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
  const first = page && page.total > 0 ? Math.min(page.offset + 1, page.total) : 0;
  const last = page ? Math.min(page.offset + page.limit, page.total) : 0;
  return (
    <div className="table-pager">
      <label>
        <span className="sr-only">Search {noun} by name</span>
        <input type="search" value={text} placeholder={`Search ${noun}…`} onChange={(e) => setText(e.target.value)} name="q" />
      </label>
      <span className="sub" aria-live="polite">
        {page === undefined ? "…" : page.total === 0 ? `no ${noun}${q ? ` matching “${q}”` : ""}` : page.offset >= page.total ? `past the last of ${page.total.toLocaleString("en-US")} ${noun}` : `${first.toLocaleString("en-US")}–${last.toLocaleString("en-US")} of ${page.total.toLocaleString("en-US")} ${noun}`}
      </span>
      {page && page.total > page.limit && (
        <span className="chips">
          <button type="button" className="btn" disabled={page.offset === 0} onClick={() => go(Math.max(0, page.offset - page.limit))}>
            Previous
          </button>
          <button type="button" className="btn" disabled={page.offset + page.limit >= page.total} onClick={() => go(page.offset + page.limit)}>
            Next
          </button>
        </span>
      )}
      {page && page.total > 0 && page.offset >= page.total && (
        <button type="button" className="btn" onClick={() => go(0)}>
          First page
        </button>
      )}
    </div>
  );
}
