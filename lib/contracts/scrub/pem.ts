// PEM-armoured private keys of every kind (PKCS#1/#8, encrypted PKCS#8, EC, DSA, OpenSSH, PGP
// private key blocks, RFC 4716 "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----"). Certificates and
// public keys are public by definition and stay readable.

/** Longest armoured body redacted in one piece (a 16384-bit RSA key is under 13 KiB). */
const MAX_BODY = 16 * 1024;

// The label must name a private or secret key; bounded lazy runs keep the scan linear.
const BEGIN = /-{4,5} ?BEGIN ([A-Z0-9 ]{0,40}?(?:PRIVATE|SECRET) KEY(?: BLOCK)?) ?-{4,5}/g;
const END = /-{4,5} ?END [A-Z0-9 ]{0,60}?KEY(?: BLOCK)? ?-{4,5}/g;
// Without an END line (a message cut short), everything that can belong to an armoured body goes:
// base64, header lines (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: AES-128-CBC,…`) and escaped newlines.
const BODY_CHAR = /[A-Za-z0-9+/=\s:,.\\-]/;

/** Replaces every private-key block (up to its END line, or to the end of its body) with `replacement`. */
export function redactPrivateKeys(text: string, replacement: string): string {
  if (!text.includes("BEGIN")) return text;
  let out = "";
  let from = 0;
  // Where the next END line starts and ends: cached, so many BEGINs before one far END (or none)
  // cost one scan in total instead of one scan each.
  let nextEnd: { start: number; end: number } | null | undefined;
  BEGIN.lastIndex = 0;
  for (let m = BEGIN.exec(text); m; m = BEGIN.exec(text)) {
    const start = m.index;
    const bodyStart = start + m[0].length;
    if (nextEnd !== null && (nextEnd === undefined || nextEnd.start < bodyStart)) {
      END.lastIndex = bodyStart;
      const e = END.exec(text);
      nextEnd = e ? { start: e.index, end: e.index + e[0].length } : null;
    }
    let stop: number;
    if (nextEnd && nextEnd.start - bodyStart <= MAX_BODY) {
      stop = nextEnd.end;
    } else {
      stop = bodyStart;
      const limit = Math.min(text.length, bodyStart + MAX_BODY);
      while (stop < limit && BODY_CHAR.test(text[stop]!)) stop++;
    }
    out += text.slice(from, start) + replacement;
    from = stop;
    BEGIN.lastIndex = stop;
  }
  return from === 0 ? text : out + text.slice(from);
}
