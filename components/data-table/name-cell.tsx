import Link from "next/link";
import type { ReactNode } from "react";

/** A name linking to its page, with markers (drift badge, two meanings) under it that stay outside the link. */
export function NameCell({ href, children, marks }: { href?: string; children: ReactNode; marks?: ReactNode }) {
  return (
    <>
      {href === undefined ? children : <Link href={href}>{children}</Link>}
      {marks !== undefined && <span className="cell-marks">{marks}</span>}
    </>
  );
}
