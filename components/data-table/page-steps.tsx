import type { PageInfo } from "@/lib/contracts/paging";

/** Previous/Next through a server-paged list; `go` moves to an offset (the URL keeps it). */
export function PageSteps({ page, go, label }: { page: PageInfo; go: (offset: number) => void; label: string }) {
  return (
    <nav className="chips" aria-label={label}>
      <button type="button" className="btn" disabled={page.offset === 0} onClick={() => go(Math.max(0, page.offset - page.limit))}>
        Previous
      </button>
      <button type="button" className="btn" disabled={page.offset + page.limit >= page.total} onClick={() => go(page.offset + page.limit)}>
        Next
      </button>
    </nav>
  );
}
