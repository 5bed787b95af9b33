/**
 * Secret and personal-data scrubbing for free text (error messages, told texts).
 *
 * Shared by the runtime (before anything leaves the process) and the server (again at ingest).
 * Pure and linear-time: every pattern uses bounded quantifiers, and input beyond
 * {@link SCRUB_MAX_INPUT} is cut off instead of scanned, so a hostile message cannot stall a request.
 * Never apply it to id fields: a 32-hex trace id is an identifier there, not a secret.
 */

/** Longest input scanned; the remainder is replaced by {@link TRUNCATED_MARK} rather than passed on unscanned. */
export const SCRUB_MAX_INPUT = 64 * 1024;

/** Appended when the input was longer than {@link SCRUB_MAX_INPUT}. */
export const TRUNCATED_MARK = "[truncated]";

/** The kinds of secrets the scrubber recognises; each is replaced by `[redacted:<kind>]`. */
export type ScrubKind =
  | "private_key"
  | "url_password"
  | "bearer"
  | "jwt"
  | "api_key"
  | "secret_value"
  | "email"
  | "card"
  | "hex";

/** The replacement token for one kind. */
export function redactionToken(kind: ScrubKind): string {
  return `[redacted:${kind}]`;
}

// JS `\b` and `\w` are ASCII-only even with the `u` flag, so boundaries are spelled out with
// Unicode property classes: "not glued to a letter, digit or underscore of any script".
const W = String.raw`[\p{L}\p{N}_]`;
const NB = String.raw`(?<!${W})`;
const NA = String.raw`(?!${W})`;

type Rule = { kind: ScrubKind; re: RegExp; replace: (match: string, ...groups: string[]) => string };

const token = redactionToken;

/** Luhn checksum over the digits of a candidate card number. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

// Generic `sk-`/`pk_`/`rk_` shapes collide with ordinary identifiers (`pk_bookings_id` is a
// constraint name), so a candidate must either carry a digit or use a vendor's known infix.
const KNOWN_KEY_INFIX = /^(?:sk|pk|rk)[-_](?:live|test|proj|svcacct|admin|ant)[-_]/;

const RULES: readonly Rule[] = [
  {
    kind: "private_key",
    // The body class excludes `-`, so a BEGIN without an END costs one short scan, not 16 KiB.
    re: /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[A-Za-z0-9+/=\s:,.]{0,16384}-----END [A-Z ]{0,40}PRIVATE KEY-----/gu,
    replace: () => token("private_key"),
  },
  {
    // scheme://user:password@host — the user stays readable, the password goes.
    kind: "url_password",
    re: /([a-z][a-z0-9+.-]{0,31}:\/\/[^\s:@/?#]{0,256}):([^\s@/?#]{1,256})@/giu,
    replace: (_m, prefix = "") => `${prefix}:${token("url_password")}@`,
  },
  {
    kind: "bearer",
    re: new RegExp(String.raw`${NB}(Bearer|Basic)\s{1,16}[^\s"',;]{1,4096}`, "giu"),
    replace: (_m, scheme = "Bearer") => `${scheme} ${token("bearer")}`,
  },
  {
    kind: "jwt",
    re: new RegExp(String.raw`${NB}eyJ[A-Za-z0-9_-]{5,4096}\.[A-Za-z0-9_-]{5,8192}\.[A-Za-z0-9_-]{0,4096}`, "gu"),
    replace: () => token("jwt"),
  },
  {
    // Vendor shapes with unmistakable prefixes: Anthropic, GitHub, Slack, AWS key ids.
    kind: "api_key",
    re: new RegExp(
      String.raw`${NB}(?:sk-ant-[A-Za-z0-9_-]{8,256}|gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255}|xox[abposre]-[A-Za-z0-9-]{8,255}|(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})${NA}`,
      "gu",
    ),
    replace: () => token("api_key"),
  },
  {
    kind: "api_key",
    re: new RegExp(String.raw`${NB}(?:sk|pk|rk)[-_][A-Za-z0-9_-]{8,256}${NA}`, "gu"),
    replace: (m) => (KNOWN_KEY_INFIX.test(m) || /\d/.test(m) ? token("api_key") : m),
  },
  {
    // `password=…`, `api_key: …`, `"token": "…"`: keep the key so the message stays useful.
    kind: "secret_value",
    re: new RegExp(
      String.raw`${NB}((?:password|passwd|pwd|secret|client[-_]?secret|api[-_]?key|access[-_]?token|auth[-_]?token|refresh[-_]?token|token)"?\s{0,4}[:=]\s{0,4}"?)([^\s"',;&}]{1,512})`,
      "giu",
    ),
    replace: (m, key = "", value = "") => (value.startsWith("[redacted") ? m : `${key}${token("secret_value")}`),
  },
  {
    kind: "email",
    re: new RegExp(
      String.raw`(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]{1,64}@[\p{L}\p{N}-]{1,63}(?:\.[\p{L}\p{N}-]{1,63}){0,8}\.\p{L}{2,24}${NA}`,
      "gu",
    ),
    replace: () => token("email"),
  },
  {
    // 13–19 digits, optionally grouped by single spaces or hyphens. Only a Luhn-valid number with a
    // card-network leading digit (2–6) is replaced, so epoch-ms timestamps (1…) and order numbers pass.
    kind: "card",
    re: new RegExp(String.raw`${NB}(?<!\p{N}[ -])\p{N}(?:[ -]?\p{N}){12,18}${NA}(?![ -]\p{N})`, "gu"),
    replace: (m) => {
      const digits = m.replace(/[ -]/g, "");
      if (!/^[0-9]+$/.test(digits) || digits.length < 13 || digits.length > 19) return m;
      if (!/^[2-6]/.test(digits)) return m;
      return luhnValid(digits) ? token("card") : m;
    },
  },
  {
    // Long hex runs (API secrets, session keys, HMACs). Dashed UUIDs are never 32 hex in a row.
    kind: "hex",
    re: new RegExp(String.raw`${NB}[0-9a-fA-F]{32,${SCRUB_MAX_INPUT}}${NA}`, "gu"),
    replace: () => token("hex"),
  },
];

// Cheap prefilter: most messages contain none of these, so they skip the regex passes entirely.
const MAYBE_SENSITIVE = /[@:=]|-----BEGIN|Bearer|Basic|eyJ|sk|pk|rk|gh|github_pat_|xox|AKIA|ASIA|ABIA|ACCA|\d{4}|[0-9a-fA-F]{32}/iu;

/**
 * Replaces every recognised secret in `text` with a `[redacted:<kind>]` token and keeps the rest.
 * Text beyond {@link SCRUB_MAX_INPUT} characters is dropped and marked with {@link TRUNCATED_MARK}.
 * Idempotent: scrubbing scrubbed text changes nothing.
 */
export function scrubText(text: string): string {
  let out = text.length > SCRUB_MAX_INPUT ? text.slice(0, SCRUB_MAX_INPUT) : text;
  if (MAYBE_SENSITIVE.test(out)) {
    for (const rule of RULES) {
      rule.re.lastIndex = 0;
      out = out.replace(rule.re, rule.replace as (substring: string, ...args: unknown[]) => string);
    }
  }
  return text.length > SCRUB_MAX_INPUT ? out + TRUNCATED_MARK : out;
}

/** True when {@link scrubText} would change `text` (a secret-shaped substring is present). */
export function looksSensitive(text: string): boolean {
  return scrubText(text) !== text;
}
