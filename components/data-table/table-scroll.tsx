import type { ReactNode } from "react";

/**
 * The scrolling box around a wide table. It is focusable and named so a keyboard user can scroll it
 * (axe: scrollable-region-focusable); the name is the table's heading.
 */
export function TableScroll({ label, className, minHeight, children }: { label: string; className?: string; minHeight?: number; children: ReactNode }) {
  return (
    <div className={className ? `${className} table-wrap` : "table-wrap"} tabIndex={0} role="region" aria-label={label} style={minHeight ? { minHeight } : undefined}>
      {children}
    </div>
  );
}
