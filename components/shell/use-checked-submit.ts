"use client";

import { useState } from "react";

/**
 * The submit cycle of a typed form: problems stay hidden until the first submit, an invalid form says
 * where to look instead of sending, and the server's refusal is shown next to the button. `submit`
 * takes the send of a valid form, or null for an invalid one.
 */
export function useCheckedSubmit() {
  const [showIssues, setShowIssues] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = (send: (() => Promise<void>) | null) => {
    setShowIssues(true);
    if (send === null) {
      setProblem("Check the fields marked above.");
      return;
    }
    setProblem(null);
    setBusy(true);
    send()
      .catch((error: unknown) => setProblem(error instanceof Error ? error.message : String(error)))
      .finally(() => setBusy(false));
  };
  return { showIssues, problem, busy, submit };
}
