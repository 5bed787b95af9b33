"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useState } from "react";
import { NAV_ITEMS } from "./nav-items";
import { SearchBox } from "./search-box";
import { TimeZoneToggle } from "./time-zone-toggle";

/**
 * The sections, the search box and the time zone switch. On a phone the sections and the switch fold
 * behind a menu button; a section link keeps the project the page shows (the other filters belong to
 * the page they were set on).
 */
export function AppNav() {
  const pathname = usePathname();
  const project = useSearchParams().get("project");
  const [open, setOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(pathname);
  // Following a link closes the menu: state reset when the page changes, during render.
  if (openedAt !== pathname) {
    setOpenedAt(pathname);
    setOpen(false);
  }
  const withProject = (href: string) => (project ? `${href}?project=${encodeURIComponent(project)}` : href);
  return (
    <header className="app-nav" data-open={open || undefined}>
      <div className="nav-top">
        <Link href={withProject("/")} className="brand">
          Faultline
        </Link>
        <button type="button" className="menu-toggle btn" aria-expanded={open} aria-controls="app-sections time-zone" onClick={() => setOpen(!open)} data-testid="menu-toggle">
          <span aria-hidden="true">{open ? "✕" : "☰"}</span> Menu
        </button>
      </div>
      <SearchBox project={project ?? "default"} />
      <nav id="app-sections" aria-label="Sections" className="sections">
        <ul>
          {NAV_ITEMS.map((item) => {
            const active = item.href === "/" ? pathname === "/" : pathname.startsWith(item.href);
            return (
              <li key={item.href}>
                <Link href={withProject(item.href)} aria-current={active ? "page" : undefined}>
                  {item.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <TimeZoneToggle id="time-zone" />
    </header>
  );
}
