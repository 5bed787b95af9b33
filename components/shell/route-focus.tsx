"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";

/**
 * After a client-side navigation, focus moves to the new page's main heading (as a full page load
 * would start at the top), so keyboard and screen-reader users land on what changed, not on <body>.
 * Filter changes keep the focus where it is: the pathname does not change for them.
 */
export function RouteFocus() {
  const pathname = usePathname();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    let tries = 0;
    const focus = () => {
      const heading = document.querySelector<HTMLElement>("main h1");
      if (!heading && tries++ < 20) return void setTimeout(focus, 50);
      const target = heading ?? document.querySelector<HTMLElement>("main");
      if (!target) return;
      if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: false });
    };
    focus();
  }, [pathname]);
  return null;
}
