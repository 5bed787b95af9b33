// The scrub rules, in the order they run. Each is one bounded regular expression plus a decision
// function, so that shape (regex) and judgement (checksums, word lists) stay separate and testable.
// Rule set informed by gitleaks' and secretlint's published rules; patterns are written here.
import { cardPrefixValid, credentialLike, ibanValid, IBAN_LENGTHS, luhnValid, statusOrPlaceholder } from "./checks";
import { redactPrivateKeys } from "./pem";

/** The kinds of secrets the scrubber recognises; each is replaced by `[redacted:<kind>]`. */
export type ScrubKind =
  | "private_key"
  | "url_password"
  | "bearer"
  | "jwt"
  | "api_key"
  | "secret_value"
  | "email"
  | "iban"
  | "card"
  | "hex";

/** The replacement token for one kind; `hint` adds a non-secret shape (`[redacted:iban DE89…00]`). */
export function redactionToken(kind: ScrubKind, hint?: string): string {
  return hint ? `[redacted:${kind} ${hint}]` : `[redacted:${kind}]`;
}
const token = redactionToken;

// JS `\b` and `\w` are ASCII-only even with the `u` flag, so boundaries are spelled out with
// Unicode property classes: "not glued to a letter, digit or underscore of any script".
const W = String.raw`[\p{L}\p{N}_]`;
const NB = String.raw`(?<!${W})`;
const NA = String.raw`(?!${W})`;

const isRedacted = (value: string) => value.startsWith("[redacted");

// Prefilters (see regexRule), with the flags of the patterns they stand for: the same case folding.
const AUTHORIZATION = /authorization/iu;
const BEARER_OR_BASIC = /bearer|basic/iu;
const FOUR_DIGITS = /[0-9]{4}/;

export interface ScrubRule {
  /** The kind it produces (a rule may also leave a match alone after checking it). */
  kind: ScrubKind;
  apply(text: string): string;
}

/**
 * A rule of one global pattern. `mayMatch` is a cheap test every match needs to pass (a literal it
 * must contain, a minimum length): most texts (tool names, short attribute values) then skip the
 * pattern's scan, and what the rule returns is the same either way.
 */
const regexRule = (
  kind: ScrubKind,
  re: RegExp,
  replace: (match: string, ...groups: (string | undefined)[]) => string,
  mayMatch: (text: string) => boolean,
): ScrubRule => ({
  kind,
  apply: (text) => {
    if (!mayMatch(text)) return text;
    re.lastIndex = 0;
    return text.replace(re, replace as (substring: string, ...args: unknown[]) => string);
  },
});

const privateKeys: ScrubRule = { kind: "private_key", apply: (text) => redactPrivateKeys(text, token("private_key")) };

// scheme://user:password@host — the user stays readable, the password goes.
const urlPassword = regexRule("url_password", /([a-z][a-z0-9+.-]{0,31}:\/\/[^\s:@/?#]{0,256}):([^\s@/?#]{1,256})@/giu, (_m, prefix = "") =>
  `${prefix}:${token("url_password")}@`,
  (t) => t.includes("://"),
);

// A credential written inside brackets or braces ("[Bearer abc…]", "{auth: Bearer abc…}") or at the
// end of a sentence: the closing characters are punctuation around it, never part of it, so the
// decision is taken on the value without them and they are kept after the redaction.
const CLOSERS = /[)\]}>.!?:]+$/u;
const splitClosers = (value: string): [string, string] => {
  const closers = CLOSERS.exec(value)?.[0] ?? "";
  return [value.slice(0, value.length - closers.length), closers];
};

// An `Authorization` header names its value as a credential, so the value goes whatever its shape,
// unless it is a state word ("Authorization: missing"). Known schemes stay readable.
const AUTH_SCHEMES = new Set(["bearer", "basic", "token", "digest", "apikey", "api-key", "negotiate", "ntlm", "ssws", "sso-key", "dpop", "mac", "hmac", "oauth", "aws4-hmac-sha256", "key"]);
const authorizationHeader = regexRule(
  "bearer",
  new RegExp(String.raw`${NB}((?:proxy-)?authorization["']?\s{0,4}[:=]\s{0,4}["']?)(?:([A-Za-z][A-Za-z0-9-]{1,31})\s{1,16})?([^\s"',;]{1,4096})`, "giu"),
  (m, label = "", scheme, raw = "") => {
    const [value, closers] = splitClosers(raw);
    if (value === "" || isRedacted(value) || statusOrPlaceholder(value)) return m;
    if (scheme === undefined) return `${label}${token("bearer")}${closers}`;
    if (AUTH_SCHEMES.has(scheme.toLowerCase()) || credentialLike(value)) return `${label}${scheme} ${token("bearer")}${closers}`;
    return m;
  },
  (t) => AUTHORIZATION.test(t),
);

// `Bearer`/`Basic` outside a header are English words too ("the Basic plan", "the Bearer of this
// ticket", "missing Bearer token"): only a credential-shaped word after them is redacted.
const bearerInProse = regexRule("bearer", new RegExp(String.raw`${NB}(Bearer|Basic)\s{1,16}([^\s"',;]{1,4096})`, "giu"), (m, scheme = "", raw = "") => {
  const [value, closers] = splitClosers(raw);
  return !isRedacted(value) && credentialLike(value) ? `${scheme} ${token("bearer")}${closers}` : m;
}, (t) => BEARER_OR_BASIC.test(t));

const jwt = regexRule("jwt", new RegExp(String.raw`${NB}eyJ[A-Za-z0-9_-]{5,4096}\.[A-Za-z0-9_-]{5,8192}\.[A-Za-z0-9_-]{0,4096}`, "gu"), () => token("jwt"), (t) => t.includes("eyJ"));

// Vendor tokens with a registered, unmistakable prefix (and a fixed or bounded length), so they are
// redacted wherever they appear, labelled or not.
const VENDOR_TOKENS = [
  String.raw`sk-ant-[A-Za-z0-9_-]{16,256}`, // Anthropic
  String.raw`sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{16,256}`, // OpenAI project, service-account and admin keys
  String.raw`sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}`, // OpenAI legacy
  String.raw`(?:sk|rk|pk)_(?:live|test|prod)_[A-Za-z0-9]{8,256}`, // Stripe
  String.raw`(?:sk|rk|pk)-(?:live|test)-[A-Za-z0-9]{8,256}`,
  String.raw`whsec_[A-Za-z0-9+/=]{24,256}`, // Stripe webhook signing secret
  String.raw`gh[pousr]_[A-Za-z0-9]{20,255}`, // GitHub
  String.raw`github_pat_[A-Za-z0-9_]{20,255}`,
  String.raw`gl(?:pat|dt|rt|ptt|ft|soat|imt|cbt|oas|agent)-[A-Za-z0-9_-]{20,255}`, // GitLab
  String.raw`GR1348941[A-Za-z0-9_-]{20,64}`, // GitLab runner registration
  String.raw`npm_[A-Za-z0-9]{36}`, // npm
  String.raw`AIza[A-Za-z0-9_-]{35}`, // Google API key
  String.raw`GOCSPX-[A-Za-z0-9_-]{28}`, // Google OAuth client secret
  String.raw`ya29\.[A-Za-z0-9_-]{20,2048}`, // Google OAuth access token
  String.raw`xox[abposre]-[A-Za-z0-9-]{8,255}`, // Slack
  String.raw`xapp-[A-Za-z0-9-]{20,255}`,
  String.raw`(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}`, // AWS access key ids
  String.raw`SK[0-9a-fA-F]{32}`, // Twilio API key
  String.raw`SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}`, // SendGrid
  String.raw`(?:hf|api_org)_[A-Za-z0-9]{30,40}`, // Hugging Face
  String.raw`key-[0-9a-f]{32}`, // Mailgun
  String.raw`[0-9a-f]{32}-us[0-9]{1,2}`, // Mailchimp
  String.raw`shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}`, // Shopify
  String.raw`do[opr]_v1_[a-f0-9]{64}`, // DigitalOcean
  String.raw`pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,512}`, // PyPI
  String.raw`dapi[a-f0-9]{32}(?:-[0-9])?`, // Databricks
  String.raw`hv[sbr]\.[A-Za-z0-9_-]{24,256}`, // HashiCorp Vault
  String.raw`PMAK-[a-f0-9]{24}-[a-f0-9]{34}`, // Postman
  String.raw`dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}`, // Doppler
  String.raw`lin_api_[A-Za-z0-9]{40}`, // Linear
  String.raw`AGE-SECRET-KEY-1[0-9A-Z]{58}`, // age
  String.raw`gsk_[A-Za-z0-9]{48,64}`, // Groq
  String.raw`xai-[A-Za-z0-9]{70,90}`, // xAI
  String.raw`r8_[A-Za-z0-9]{37}`, // Replicate
  String.raw`pplx-[A-Za-z0-9]{48}`, // Perplexity
  String.raw`sntry[su]_[A-Za-z0-9+/=_-]{40,300}`, // Sentry
  String.raw`glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}`, // Grafana service account
  String.raw`glc_[A-Za-z0-9+/]{32,400}={0,2}`, // Grafana cloud
  String.raw`ATATT3[A-Za-z0-9_=-]{100,300}`, // Atlassian
  String.raw`ntn_[0-9]{11}[A-Za-z0-9]{35}`, // Notion
  String.raw`sbp_[a-f0-9]{40}`, // Supabase
  String.raw`figd_[A-Za-z0-9_-]{40}`, // Figma
  String.raw`sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}`, // Square
  String.raw`[0-9]{8,10}:AA[A-Za-z0-9_-]{33}`, // Telegram bot
];
// The shortest token has 13 characters (Slack's `xoxb-` and 8).
const vendorTokens = regexRule("api_key", new RegExp(String.raw`${NB}(?:${VENDOR_TOKENS.join("|")})${NA}`, "gu"), () => token("api_key"), (t) => t.length >= 13);

// Legacy OpenAI / DeepSeek-style `sk-` keys have no infix; a long alphanumeric run with digits and
// letters is a key, while SKU-like `sk-1044-oak-xl` (dashes, short runs) is not.
const bareSkKey = regexRule("api_key", new RegExp(String.raw`${NB}sk-[A-Za-z0-9]{32,256}${NA}`, "gu"), (m) =>
  /[0-9]/.test(m.slice(3)) && /[A-Za-z]/.test(m.slice(3)) ? token("api_key") : m,
  (t) => t.includes("sk-"),
);

// Webhook URLs whose path is the credential: the host and route stay for debugging.
const webhookUrls = regexRule(
  "api_key",
  /((?:hooks\.slack\.com\/(?:services|workflows|triggers)|discord(?:app)?\.com\/api\/webhooks)\/)[A-Za-z0-9/_-]{16,256}/gu,
  (_m, prefix = "") => `${prefix}${token("api_key")}`,
  (t) => t.includes("hooks.slack.com/") || t.includes("discord"),
);

// `key=value`, `KEY: value`, `"key": "value"` with a key that names a secret. Any key prefix is
// allowed (`aws_`, `DB_`, `x-`, `stripe.`), so `aws_secret_access_key` and `X-Api-Key` are found.
const SECRET_KEYS = [
  String.raw`secret[_.-]?access[_.-]?key`,
  String.raw`access[_.-]?key[_.-]?(?:id|secret)`,
  String.raw`(?:client|app|consumer|webhook|api|shared)[_.-]?secret`,
  String.raw`(?:secret|private|signing|encryption|account|shared[_.-]?access|master|session)[_.-]?key`,
  String.raw`api[_.-]?(?:key|token)`,
  String.raw`apikey`,
  String.raw`(?:access|auth|refresh|id|bearer|session|csrf|xsrf)[_.-]?token`,
  String.raw`passphrase`,
  String.raw`password`,
  String.raw`passwd`,
  String.raw`secret`,
  String.raw`token`,
  String.raw`signature`,
  String.raw`sig`,
];
// A bare `token`/`signature`/`sig` is ambiguous ("Unexpected token: '}'", "token: 4096"): its value
// must look like a credential. Pagination cursors (`next_page_token`) are not secrets at all.
const WEAK_KEYS = new Set(["token", "signature", "sig"]);
const CURSOR_PREFIX = /(?:^|[_.-])(?:next|prev|previous|page|continuation|pagination|cursor|sync)[_.-]/i;
const secretValue = regexRule(
  "secret_value",
  new RegExp(
    String.raw`(?<![\p{L}\p{N}_.-])((?:[A-Za-z0-9]{0,24}[_.-]){0,4}(?:${SECRET_KEYS.join("|")}))(["']?\s{0,4}(?:=>|:=|[:=])\s{0,4})(?:"([^"\n]{1,512})"|'([^'\n]{1,512})'|([^\s"',;&)}<>\]]{1,512}))`,
    "giu",
  ),
  (m, key = "", sep = "", dq, sq, bare) => {
    const value = dq ?? sq ?? bare ?? "";
    if (isRedacted(value) || statusOrPlaceholder(value)) return m;
    if (CURSOR_PREFIX.test(key)) return m;
    if (WEAK_KEYS.has(key.toLowerCase()) && !credentialLike(value)) return m;
    const quote = dq !== undefined ? '"' : sq !== undefined ? "'" : "";
    return `${key}${sep}${quote}${token("secret_value")}${quote}`;
  },
  (t) => t.includes(":") || t.includes("="),
);

// Long hex runs are identifiers far more often than secrets: 32-hex trace ids, 40-hex git SHAs,
// 64-hex content digests (`sha256:…`), MD5 checksums. Shape and entropy cannot tell an HMAC key from
// a trace id, so only a hex run *labelled* as a secret is redacted ("secret 0123…", "session=…",
// "key: …"); vendor keys built on hex (Twilio, Mailgun, Databricks, DigitalOcean) have their prefixes above.
const labelledHex = regexRule(
  "hex",
  new RegExp(
    String.raw`${NB}((?:secret|key|token|session|signature|hmac|salt|cookie|password|passwd|apikey|api[-_ ]key|private[-_ ]key)s?(?:\s{0,4}[:=]\s{0,4}|\s{1,4})["']?)([0-9a-fA-F]{32,4096})${NA}`,
    "giu",
  ),
  (_m, label = "") => `${label}${token("hex")}`,
  (t) => t.length >= 36, // a 3-letter label, a separator and 32 hex digits
);

const email = regexRule(
  "email",
  new RegExp(String.raw`(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]{1,64}@[\p{L}\p{N}-]{1,63}(?:\.[\p{L}\p{N}-]{1,63}){0,8}\.\p{L}{2,24}${NA}`, "gu"),
  () => token("email"),
  (t) => t.includes("@"),
);

// Country code, check digits, then 11–30 letters/digits, optionally grouped by single spaces. The
// match may run into a following upper-case word, so it is cut at the country's registered length;
// then the mod-97 checksum decides. The hint keeps country, check digits and the last two characters.
const iban = regexRule("iban", /(?<![A-Za-z0-9])[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]){11,34}/g, (m, ...rest) => {
  const offset = rest[rest.length - 2] as unknown as number;
  const input = rest[rest.length - 1] as unknown as string;
  const length = IBAN_LENGTHS[m.slice(0, 2)];
  if (!length) return m;
  let count = 0;
  let cut = -1;
  for (let i = 0; i < m.length; i++) {
    if (m[i] !== " " && ++count === length) {
      cut = i + 1;
      break;
    }
  }
  if (cut < 0) return m;
  const next = cut < m.length ? m[cut]! : (input[offset + m.length] ?? "");
  if (/[A-Za-z0-9]/.test(next)) return m;
  const compact = m.slice(0, cut).replace(/ /g, "");
  if (!ibanValid(compact)) return m;
  return token("iban", `${compact.slice(0, 4)}…${compact.slice(-2)}`) + m.slice(cut);
}, (t) => t.length >= 15);

// Card numbers as they are written: contiguous, in groups of four (4-4-4-4[-3]), or Amex/Diners
// 4-6-5 / 4-6-4. Amounts grouped by thousands ("5 105 105 105 105 100") are not card groupings.
// Then the issuer prefix and length, then Luhn.
const card = regexRule(
  "card",
  /(?<![0-9A-Za-z_.,])(?<![0-9][ -])(?:[0-9]{13,19}|[0-9]{4}([ -])[0-9]{4}\1[0-9]{4}\1[0-9]{1,4}(?:\1[0-9]{1,3})?|[0-9]{4}([ -])[0-9]{6}\2[0-9]{4,5})(?![0-9A-Za-z_])(?![.,]?[0-9])(?![ -][0-9])/g,
  (m) => {
    const digits = m.replace(/[ -]/g, "");
    return digits.length >= 13 && digits.length <= 19 && cardPrefixValid(digits) && luhnValid(digits) ? token("card") : m;
  },
  (t) => t.length >= 13 && FOUR_DIGITS.test(t),
);

/**
 * Every rule in order: armoured keys and URLs first (they contain what later rules look for), then
 * labelled and prefixed credentials, then personal data. A later rule never re-matches an earlier
 * rule's `[redacted:…]` token, which makes the whole pass idempotent.
 */
export const SCRUB_RULES: readonly ScrubRule[] = [
  privateKeys,
  urlPassword,
  authorizationHeader,
  bearerInProse,
  jwt,
  webhookUrls,
  vendorTokens,
  bareSkKey,
  secretValue,
  labelledHex,
  email,
  iban,
  card,
];
