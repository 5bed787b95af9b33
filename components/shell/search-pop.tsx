"use client";

import type { SearchHit } from "@/lib/contracts/search";

const KIND_LABEL: Record<SearchHit["kind"], string> = { run: "run", call: "call", tool: "tool", code: "code", release: "release" };

/**
 * The search box's list: the prefix matches, then the full-text search of the words typed (option
 * `hits.length`), and a status line. `onPick` opens an option by its index.
 */
export function SearchPop(props: { id: string; hits: SearchHit[]; active: number; text: string; q: string; truncated: boolean; answered: boolean; error: string | null; onPick: (index: number) => void }) {
  const { id, hits, active, text, q, truncated, answered, error, onPick } = props;
  const textOption = hits.length;
  return (
    <div className="search-pop">
      <ul id={`${id}-list`} role="listbox" className="search-hits" aria-label="Matches" data-testid="search-hits">
        {hits.map((hit, i) => (
          <li
            key={hit.kind === "call" ? `call:${hit.value}:${hit.runId}` : `${hit.kind}:${hit.value}`}
            id={`${id}-hit-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onPick(i)}
            data-kind={hit.kind}
          >
            <span className="hit-kind">{KIND_LABEL[hit.kind]}</span> <span className="mono">{hit.value}</span>
            {hit.kind === "call" && (
              <span>
                {" in run "}
                <span className="mono">{hit.runId}</span>
              </span>
            )}
          </li>
        ))}
        <li
          id={`${id}-hit-${textOption}`}
          role="option"
          aria-selected={active === textOption}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onPick(textOption)}
          data-kind="text"
        >
          <span className="hit-kind">text</span> search messages and told texts for “{text}”
        </li>
      </ul>
      <p className="search-empty" role="status" data-testid="search-status">
        {q !== "" && answered && hits.length === 0 ? `No run, call, tool, code or release starts with “${q}”.` : ""}
        {q !== "" && truncated ? "More match: type more to narrow." : ""}
        {error !== null ? `Search failed: ${error}` : ""}
      </p>
    </div>
  );
}
