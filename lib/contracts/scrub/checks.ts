// Pure checks behind the scrub rules: checksums and "does this look like a credential" tests.

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

/**
 * True when the number's issuer prefix and length belong to a card network (Visa, Mastercard incl.
 * the 2-series, Amex, JCB, Diners, Discover, UnionPay, Maestro). Luhn alone passes one random number
 * in ten; the prefix table is what keeps order numbers and epoch-millisecond timestamps intact.
 */
export function cardPrefixValid(d: string): boolean {
  const n = d.length;
  const two = Number(d.slice(0, 2));
  const three = Number(d.slice(0, 3));
  const four = Number(d.slice(0, 4));
  if (d[0] === "4") return n === 13 || n === 16 || n === 19;
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return n === 16;
  if (two === 34 || two === 37) return n === 15;
  if (two === 35) return n >= 16;
  if (two === 36 || two === 38 || two === 39 || (three >= 300 && three <= 305)) return n >= 14;
  if (four === 6011 || two === 65 || (three >= 644 && three <= 649) || two === 62) return n >= 16;
  if (two === 50 || (two >= 56 && two <= 69)) return n >= 13;
  return false;
}

/** IBAN length per country (ISO 13616 registry); a country missing here is not treated as an IBAN. */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, BY: 28, CH: 21, CR: 22,
  CY: 28, CZ: 24, DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22,
  GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30,
  KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31,
  MU: 30, NL: 18, NO: 15, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24, SC: 31, SE: 24,
  SI: 19, SK: 24, SM: 27, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20,
};

/** ISO 7064 mod-97 check of a compact, upper-case IBAN, with its country's registered length. */
export function ibanValid(iban: string): boolean {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban) || IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (const ch of rearranged) {
    const v = Number.parseInt(ch, 36);
    rem = (v >= 10 ? rem * 100 + v : rem * 10 + v) % 97;
  }
  return rem === 1;
}

// Words that follow `token:` / `password:` / `Authorization:` in error prose: the state of the
// credential, not the credential. A real secret equal to one of these words is not plausible.
const STATUS_WORDS = new Set(
  (
    "expired expires invalid missing revoked required malformed null nil none undefined empty unknown rejected denied " +
    "unauthorized forbidden not is was has must should cannot can too wrong incorrect bad mismatch absent provided present " +
    "ok true false refreshed failed error set unset expected needed rotated reset changed valid verified accepted please " +
    "redacted hidden masked omitted n/a yes no"
  ).split(" "),
);

/** True for a value that names a credential's state or stands in for one (`***`, `<token>`, `${VAR}`). */
export function statusOrPlaceholder(value: string): boolean {
  const v = value.replace(/[.!?:]+$/, "");
  if (v === "" || STATUS_WORDS.has(v.toLowerCase())) return true;
  return /^(?:\*{1,64}|[xX]{3,64}|<[^>]{0,64}>|\$\{[^}]{0,64}\}?|\{\{[^}]{0,64}\}{0,2}|%[^%]{0,64}%|\$[A-Z_][A-Z0-9_]{0,63}|\[redacted[^\]]{0,64}\]?)$/.test(v);
}

/**
 * Whether a word after an ambiguous label (`Bearer`, `Basic`, a bare `token=`) has a credential's
 * shape rather than a word's: letters mixed with digits, base64/url punctuation in a long run, inner
 * capitals in a long base64 run, or a long digit run. "plan", "of", "token", `realm=` are words.
 */
export function credentialLike(value: string): boolean {
  const v = value.replace(/[.!?:)]+$/, "");
  if (v.length < 6) return false;
  const letters = /[A-Za-z]/.test(v);
  if (letters && /[0-9]/.test(v)) return true;
  if (v.length >= 10 && letters && /[+/=_~.-]/.test(v) && /^[A-Za-z0-9+/=_~.-]+$/.test(v)) return true;
  if (v.length >= 12 && /^[A-Za-z0-9+/=]+$/.test(v) && /[a-z]/.test(v) && /[A-Z]/.test(v.slice(1))) return true;
  return /^[0-9]{16,}$/.test(v);
}
