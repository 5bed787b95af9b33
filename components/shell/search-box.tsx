"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import type { SearchHit } from "@/lib/contracts/search";
import { searchQuery, textSearchHref } from "@/lib/query/search-query";

// The list under the box loads when someone first types: every page has the box, few use it.
const SearchPop = lazy(() => import("./search-pop").then((m) => ({ default: m.SearchPop })));

/** Where a hit goes: its own page, a call's run with its first attempt selected, or (a release) the Overview narrowed to it. */
export function hitHref(hit: SearchHit, project: string): string {
  const p = project === "default" ? "" : `project=${encodeURIComponent(project)}`;
  const qs = (extra = "") => [p, extra].filter(Boolean).join("&");
  const withQs = (path: string, extra = "") => (qs(extra) ? `${path}?${qs(extra)}` : path);
  switch (hit.kind) {
    case "run":
      return withQs(`/runs/${encodeURIComponent(hit.value)}`);
    case "call":
      return withQs(`/runs/${encodeURIComponent(hit.runId)}`, `attempt=${encodeURIComponent(hit.spanId)}`);
    case "tool":
      return withQs(`/tools/${encodeURIComponent(hit.value)}`);
    case "code":
      return withQs(`/codes/${encodeURIComponent(hit.value)}`);
    case "release":
      return withQs("/", `release=${encodeURIComponent(hit.value)}`);
  }
}

// Typing pauses this long before the box asks the server.
const DEBOUNCE_MS = 150;

/**
 * One box for run ids, call ids, tools, codes and releases (prefix match), whose last option searches
 * the error messages and told texts for the words (the search page); `/` focuses it from anywhere.
 */
export function SearchBox({ project }: { project: string }) {
  const router = useRouter();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState("");
  const [q, setQ] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  useEffect(() => {
    const t = setTimeout(() => setQ(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "/" || e.metaKey || e.ctrlKey || e.altKey) return;
      const t = e.target as HTMLElement | null;
      if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
      e.preventDefault();
      input.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  const result = useQuery({ ...searchQuery(project, q), enabled: q !== "", placeholderData: keepPreviousData });
  const hits = q === "" ? [] : (result.data?.hits ?? []);
  const shown = open && text.trim() !== "";
  // The option after the hits: the full-text search of what was typed.
  const textOption = hits.length;
  const go = (index: number) => {
    const hit = hits[index];
    const words = text.trim();
    if (!hit && (index !== textOption || words === "")) return;
    setOpen(false);
    setText("");
    router.push(hit ? hitHref(hit, project) : textSearchHref(project, words));
  };
  return (
    <div className="search-box" role="search" aria-label="Find">
      <label htmlFor={`${id}-input`} className="sr-only">
        Find a run id, call id, tool, code or release
      </label>
      <input
        ref={input}
        id={`${id}-input`}
        type="search"
        name="find"
        placeholder="Find run, call, tool, code…  /"
        autoComplete="off"
        role="combobox"
        aria-expanded={shown}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={shown ? `${id}-hit-${active}` : undefined}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") setActive((a) => Math.min(a + 1, textOption));
          else if (e.key === "ArrowUp") setActive((a) => Math.max(a - 1, 0));
          else if (e.key === "Enter") go(Math.min(active, textOption));
          else if (e.key === "Escape") {
            setOpen(false);
            input.current?.blur();
          } else return;
          e.preventDefault();
        }}
        data-testid="search-input"
      />
      {shown && (
        <Suspense fallback={null}>
          <SearchPop id={id} hits={hits} active={active} text={text.trim()} q={q} truncated={result.data?.truncated === true} answered={result.data !== undefined} error={result.error?.message ?? null} onPick={go} />
        </Suspense>
      )}
    </div>
  );
}
