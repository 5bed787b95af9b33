"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useState } from "react";
import { AccountMenu } from "@/components/auth/account-menu";
import { UnreachableNotice, useCheckedNavigation } from "./checked-navigation";
import { NAV_ITEMS } from "./nav-items";
import { UnresolvedCount } from "./unresolved-count";
import { SavedViewsSlot } from "./saved-views-slot";
import { SearchBox } from "./search-box";
import { TimeZoneToggle } from "./time-zone-toggle";

/** The pages a visitor opens before signing in: the shell shows only the brand there. */
const AUTH_PAGES = /^\/(sign-in|setup|invite)(\/|$)/;

/** The project a page shows: `?project=`, or the one a settings page is about. */
function currentProject(pathname: string, search: URLSearchParams): string | null {
  const fromPath = pathname.match(/^\/settings\/projects\/([^/]+)/)?.[1];
  return search.get("project") ?? (fromPath === undefined ? null : decodeURIComponent(fromPath));
}

/**
 * The sections, the search box, the time zone switch and the account. On a phone all of them fold
 * behind a menu button, so the sticky header is one row; a section link keeps the project the page shows (the other
 * filters belong to the page they were set on).
 */
export function AppNav() {
  const pathname = usePathname();
  const search = useSearchParams();
  const project = currentProject(pathname, search);
  const [open, setOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(pathname);
  // Following a link closes the menu: state reset when the page changes, during render.
  if (openedAt !== pathname) {
    setOpenedAt(pathname);
    setOpen(false);
  }
  if (AUTH_PAGES.test(pathname)) {
    return (
      <header className="app-nav">
        <div className="nav-top">
          <Link href="/" className="brand">
            Faultline
          </Link>
        </div>
      </header>
    );
  }
  return <SignedInNav pathname={pathname} project={project} query={search.toString()} open={open} onToggle={() => setOpen(!open)} />;
}

// Settings pages hold forms, not filters: nothing there to save as a view.
const VIEWLESS_PAGES = /^\/settings(\/|$)/;

function SignedInNav({ pathname, project, query, open, onToggle }: { pathname: string; project: string | null; query: string; open: boolean; onToggle: () => void }) {
  const withProject = (href: string) => (project ? `${href}?project=${encodeURIComponent(project)}` : href);
  const items: { href: string; match: string; label: string }[] = NAV_ITEMS.map((item) => ({ href: withProject(item.href), match: item.href, label: item.label }));
  const nav = useCheckedNavigation();
  return (
    <header className="app-nav" data-open={open || undefined}>
      <div className="nav-top">
        <Link href={withProject("/")} className="brand" onClick={nav.onClick(withProject("/"))}>
          Faultline
        </Link>
        <button type="button" className="menu-toggle btn" aria-expanded={open} aria-controls="app-sections saved-views time-zone" onClick={onToggle} data-testid="menu-toggle" title="Search, sections, saved views, time zone and account">
          <span aria-hidden="true">{open ? "✕" : "☰"}</span> Menu
        </button>
      </div>
      <SearchBox project={project ?? "default"} />
      <nav id="app-sections" aria-label="Sections" className="sections">
        <ul>
          {items.map((item) => {
            const active = item.match === "/" ? pathname === "/" : pathname.startsWith(item.match);
            return (
              <li key={item.match}>
                <Link href={item.href} aria-current={active ? "page" : undefined} onClick={nav.onClick(item.href)}>
                  {item.label}
                  {item.match === "/issues" ? <UnresolvedCount project={project ?? "default"} /> : null}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      {VIEWLESS_PAGES.test(pathname) ? null : <SavedViewsSlot project={project ?? "default"} page={pathname} query={query} />}
      <TimeZoneToggle id="time-zone" />
      <AccountMenu />
      {nav.failed !== null && <UnreachableNotice href={nav.failed} checking={nav.checking} onRetry={() => void nav.retry()} onDismiss={nav.dismiss} />}
    </header>
  );
}
