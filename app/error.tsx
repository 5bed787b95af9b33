"use client";

import { RenderError } from "@/components/dashboard/render-error";

/** A page that failed while rendering: the shell stays, with what happened and a retry. */
export default function PageError(props: { error: Error & { digest?: string }; reset: () => void }) {
  return <RenderError {...props} />;
}
