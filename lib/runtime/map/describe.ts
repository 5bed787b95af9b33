import { scrubText } from "../../contracts/scrub";

/** Longest upstream text kept in a translated error. */
const MAX_DETAIL = 2000;

// Every read of a thrown value may run hostile code (getters, Proxy traps, toString), so each
// one is guarded and the next, plainer description is tried.
function rawText(error: unknown): string {
  if (typeof error === "string") return error;
  try {
    // `instanceof` itself runs a Proxy's getPrototypeOf trap.
    if (error instanceof Error) {
      const message: unknown = error.message;
      if (typeof message === "string" && message !== "") return message;
      const name: unknown = error.name;
      if (typeof name === "string" && name !== "") return name;
    }
  } catch {
    // fall through to the plainer forms
  }
  try {
    const json = JSON.stringify(error);
    if (typeof json === "string") return json;
  } catch {
    // not serialisable
  }
  try {
    return String(error);
  } catch {
    return `a thrown ${typeof error} that cannot be described`;
  }
}

/** Text of any thrown value, scrubbed and bounded. Never throws, whatever the value does. */
export function describeThrown(error: unknown): string {
  const scrubbed = scrubText(rawText(error));
  return scrubbed.length > MAX_DETAIL ? `${scrubbed.slice(0, MAX_DETAIL)}…` : scrubbed;
}
