"use client";

import { useEffect } from "react";

/**
 * Reloads the address the visitor asked for after `seconds` (the server's Retry-After), so a page
 * answered "storage unavailable" comes back by itself once the database does.
 */
export function RetrySoon({ seconds }: { seconds: number }) {
  useEffect(() => {
    const timer = setTimeout(() => window.location.reload(), seconds * 1000);
    return () => clearTimeout(timer);
  }, [seconds]);
  return (
    <p data-testid="retry-soon" role="status">
      This page tries again by itself every {seconds} seconds.
    </p>
  );
}
