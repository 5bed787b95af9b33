"""Secret and personal-data scrubbing for free text, with the rules of ``lib/contracts/scrub.ts``.

Applied to error messages and told texts before anything leaves the process (the server scrubs
again at ingest). Every pattern has bounded quantifiers and input beyond :data:`SCRUB_MAX_INPUT`
characters is cut off, so a hostile message cannot stall the agent. Never apply it to ids.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

SCRUB_MAX_INPUT: Final = 64 * 1024
"""Longest input scanned; the remainder is replaced by :data:`TRUNCATED_MARK`."""
TRUNCATED_MARK: Final = "[truncated]"
"""Appended when the input was longer than :data:`SCRUB_MAX_INPUT`."""


def _token(kind: str, hint: str | None = None) -> str:
    return f"[redacted:{kind} {hint}]" if hint else f"[redacted:{kind}]"


# Python's Unicode \w is "a letter, digit or underscore of any script": the TypeScript rules spell
# the same class out as [\p{L}\p{N}_] because JavaScript's \w is ASCII-only.
_NB = r"(?<!\w)"
_NA = r"(?!\w)"
_LETTER = r"[^\W\d_]"

_Replace = Callable[[re.Match[str]], str]


def _is_redacted(value: str) -> bool:
    return value.startswith("[redacted")


# --- checks (lib/contracts/scrub/checks.ts) -------------------------------------------------------


def luhn_valid(digits: str) -> bool:
    """Luhn checksum over the digits of a candidate card number."""
    total = 0
    double = False
    for ch in reversed(digits):
        if not "0" <= ch <= "9":
            return False
        d = ord(ch) - 48
        if double:
            d *= 2
            if d > 9:
                d -= 9
        total += d
        double = not double
    return len(digits) > 0 and total % 10 == 0


def card_prefix_valid(d: str) -> bool:
    """True when the number's issuer prefix and length belong to a card network."""
    n = len(d)
    two, three, four = int(d[:2] or 0), int(d[:3] or 0), int(d[:4] or 0)
    if d[:1] == "4":
        return n in (13, 16, 19)
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return n == 16
    if two in (34, 37):
        return n == 15
    if two == 35:
        return n >= 16
    if two in (36, 38, 39) or 300 <= three <= 305:
        return n >= 14
    if four == 6011 or two == 65 or 644 <= three <= 649 or two == 62:
        return n >= 16
    if two == 50 or 56 <= two <= 69:
        return n >= 13
    return False


IBAN_LENGTHS: Final[dict[str, int]] = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29, "BY": 28,
    "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18,
    "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22,
    "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20,
    "LU": 20, "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15,
    "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24, "SC": 31, "SE": 24, "SI": 19,
    "SK": 24, "SM": 27, "ST": 25, "SV": 28, "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}  # fmt: skip
"""IBAN length per country (ISO 13616 registry)."""

_IBAN_SHAPE = re.compile(r"^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$")


def iban_valid(iban: str) -> bool:
    """ISO 7064 mod-97 check of a compact, upper-case IBAN, with its country's registered length."""
    if not _IBAN_SHAPE.match(iban) or IBAN_LENGTHS.get(iban[:2]) != len(iban):
        return False
    rem = 0
    for ch in iban[4:] + iban[:4]:
        v = int(ch, 36)
        rem = (rem * 100 + v if v >= 10 else rem * 10 + v) % 97
    return rem == 1


_STATUS_WORDS: Final = frozenset(
    (
        "expired expires invalid missing revoked required malformed null nil none undefined empty unknown rejected denied "
        "unauthorized forbidden not is was has must should cannot can too wrong incorrect bad mismatch absent provided present "
        "ok true false refreshed failed error set unset expected needed rotated reset changed valid verified accepted please "
        "redacted hidden masked omitted n/a yes no"
    ).split(" ")
)
_PLACEHOLDER = re.compile(
    r"^(?:\*{1,64}|[xX]{3,64}|<[^>]{0,64}>|\$\{[^}]{0,64}\}?|\{\{[^}]{0,64}\}{0,2}|%[^%]{0,64}%|\$[A-Z_][A-Z0-9_]{0,63}|\[redacted[^\]]{0,64}\]?)$"
)


def status_or_placeholder(value: str) -> bool:
    """True for a value that names a credential's state or stands in for one (``***``, ``<token>``, ``${VAR}``)."""
    v = re.sub(r"[.!?:]+$", "", value)
    if v == "" or v.lower() in _STATUS_WORDS:
        return True
    return _PLACEHOLDER.match(v) is not None


def credential_like(value: str) -> bool:
    """Whether a word after an ambiguous label (``Bearer``, a bare ``token=``) has a credential's shape."""
    v = re.sub(r"[.!?:)]+$", "", value)
    if len(v) < 6:
        return False
    letters = re.search(r"[A-Za-z]", v) is not None
    if letters and re.search(r"[0-9]", v):
        return True
    if len(v) >= 10 and letters and re.search(r"[+/=_~.-]", v) and re.fullmatch(r"[A-Za-z0-9+/=_~.-]+", v):
        return True
    if len(v) >= 12 and re.fullmatch(r"[A-Za-z0-9+/=]+", v) and re.search(r"[a-z]", v) and re.search(r"[A-Z]", v[1:]):
        return True
    return re.fullmatch(r"[0-9]{16,}", v) is not None


# --- private keys (lib/contracts/scrub/pem.ts) ------------------------------------------------------

_PEM_MAX_BODY = 16 * 1024
_BEGIN = re.compile(r"-{4,5} ?BEGIN ([A-Z0-9 ]{0,40}?(?:PRIVATE|SECRET) KEY(?: BLOCK)?) ?-{4,5}")
_END = re.compile(r"-{4,5} ?END [A-Z0-9 ]{0,60}?KEY(?: BLOCK)? ?-{4,5}")
_BODY_CHAR = re.compile(r"[A-Za-z0-9+/=\s:,.\\-]")


def _redact_private_keys(text: str) -> str:
    if "BEGIN" not in text:
        return text
    out: list[str] = []
    start_from = 0
    pos = 0
    next_end: tuple[int, int] | None | bool = False  # False: not searched yet
    while True:
        m = _BEGIN.search(text, pos)
        if not m:
            break
        start = m.start()
        body_start = m.end()
        if next_end is not None and (next_end is False or (isinstance(next_end, tuple) and next_end[0] < body_start)):
            e = _END.search(text, body_start)
            next_end = (e.start(), e.end()) if e else None
        if isinstance(next_end, tuple) and next_end[0] - body_start <= _PEM_MAX_BODY:
            stop = next_end[1]
        else:
            stop = body_start
            limit = min(len(text), body_start + _PEM_MAX_BODY)
            while stop < limit and _BODY_CHAR.match(text[stop]):
                stop += 1
        out.append(text[start_from:start] + _token("private_key"))
        start_from = stop
        pos = stop
    return text if start_from == 0 else "".join(out) + text[start_from:]


# --- the rules (lib/contracts/scrub/rules.ts) -------------------------------------------------------


def _rule(pattern: str, flags: int, replace: _Replace) -> Callable[[str], str]:
    compiled = re.compile(pattern, flags)
    return lambda text: compiled.sub(replace, text)


_I = re.IGNORECASE

_url_password = _rule(
    r"([a-z][a-z0-9+.-]{0,31}://[^\s:@/?#]{0,256}):([^\s@/?#]{1,256})@",
    _I,
    lambda m: f"{m.group(1)}:{_token('url_password')}@",
)

_AUTH_SCHEMES = frozenset(
    "bearer basic token digest apikey api-key negotiate ntlm ssws sso-key dpop mac hmac oauth aws4-hmac-sha256 key".split()
)


# A credential inside brackets or braces ("[Bearer abc…]") or at the end of a sentence: the closing
# characters are punctuation around it, so the decision is taken without them and they are kept.
_CLOSERS = re.compile(r"[)\]}>.!?:]+\Z")


def _split_closers(value: str) -> tuple[str, str]:
    found = _CLOSERS.search(value)
    closers = found.group(0) if found else ""
    return value[: len(value) - len(closers)], closers


def _authorization(m: re.Match[str]) -> str:
    label, scheme = m.group(1) or "", m.group(2)
    value, closers = _split_closers(m.group(3) or "")
    if value == "" or _is_redacted(value) or status_or_placeholder(value):
        return m.group(0)
    if scheme is None:
        return f"{label}{_token('bearer')}{closers}"
    if scheme.lower() in _AUTH_SCHEMES or credential_like(value):
        return f"{label}{scheme} {_token('bearer')}{closers}"
    return m.group(0)


_authorization_header = _rule(
    _NB + r"((?:proxy-)?authorization[\"']?\s{0,4}[:=]\s{0,4}[\"']?)(?:([A-Za-z][A-Za-z0-9-]{1,31})\s{1,16})?([^\s\"',;]{1,4096})",
    _I,
    _authorization,
)


def _bearer(m: re.Match[str]) -> str:
    scheme = m.group(1)
    value, closers = _split_closers(m.group(2))
    return f"{scheme} {_token('bearer')}{closers}" if not _is_redacted(value) and credential_like(value) else m.group(0)


_bearer_in_prose = _rule(_NB + r"(Bearer|Basic)\s{1,16}([^\s\"',;]{1,4096})", _I, _bearer)

_jwt = _rule(_NB + r"eyJ[A-Za-z0-9_-]{5,4096}\.[A-Za-z0-9_-]{5,8192}\.[A-Za-z0-9_-]{0,4096}", 0, lambda m: _token("jwt"))

_VENDOR_TOKENS = [
    r"sk-ant-[A-Za-z0-9_-]{16,256}",
    r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{16,256}",
    r"sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}",
    r"(?:sk|rk|pk)_(?:live|test|prod)_[A-Za-z0-9]{8,256}",
    r"(?:sk|rk|pk)-(?:live|test)-[A-Za-z0-9]{8,256}",
    r"whsec_[A-Za-z0-9+/=]{24,256}",
    r"gh[pousr]_[A-Za-z0-9]{20,255}",
    r"github_pat_[A-Za-z0-9_]{20,255}",
    r"gl(?:pat|dt|rt|ptt|ft|soat|imt|cbt|oas|agent)-[A-Za-z0-9_-]{20,255}",
    r"GR1348941[A-Za-z0-9_-]{20,64}",
    r"npm_[A-Za-z0-9]{36}",
    r"AIza[A-Za-z0-9_-]{35}",
    r"GOCSPX-[A-Za-z0-9_-]{28}",
    r"ya29\.[A-Za-z0-9_-]{20,2048}",
    r"xox[abposre]-[A-Za-z0-9-]{8,255}",
    r"xapp-[A-Za-z0-9-]{20,255}",
    r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}",
    r"SK[0-9a-fA-F]{32}",
    r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}",
    r"(?:hf|api_org)_[A-Za-z0-9]{30,40}",
    r"key-[0-9a-f]{32}",
    r"[0-9a-f]{32}-us[0-9]{1,2}",
    r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}",
    r"do[opr]_v1_[a-f0-9]{64}",
    r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,512}",
    r"dapi[a-f0-9]{32}(?:-[0-9])?",
    r"hv[sbr]\.[A-Za-z0-9_-]{24,256}",
    r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}",
    r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}",
    r"lin_api_[A-Za-z0-9]{40}",
    r"AGE-SECRET-KEY-1[0-9A-Z]{58}",
    r"gsk_[A-Za-z0-9]{48,64}",
    r"xai-[A-Za-z0-9]{70,90}",
    r"r8_[A-Za-z0-9]{37}",
    r"pplx-[A-Za-z0-9]{48}",
    r"sntry[su]_[A-Za-z0-9+/=_-]{40,300}",
    r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}",
    r"glc_[A-Za-z0-9+/]{32,400}={0,2}",
    r"ATATT3[A-Za-z0-9_=-]{100,300}",
    r"ntn_[0-9]{11}[A-Za-z0-9]{35}",
    r"sbp_[a-f0-9]{40}",
    r"figd_[A-Za-z0-9_-]{40}",
    r"sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}",
    r"[0-9]{8,10}:AA[A-Za-z0-9_-]{33}",
]
_vendor_tokens = _rule(_NB + "(?:" + "|".join(_VENDOR_TOKENS) + ")" + _NA, 0, lambda m: _token("api_key"))


def _bare_sk(m: re.Match[str]) -> str:
    rest = m.group(0)[3:]
    return _token("api_key") if re.search(r"[0-9]", rest) and re.search(r"[A-Za-z]", rest) else m.group(0)


_bare_sk_key = _rule(_NB + r"sk-[A-Za-z0-9]{32,256}" + _NA, 0, _bare_sk)

_webhook_urls = _rule(
    r"((?:hooks\.slack\.com/(?:services|workflows|triggers)|discord(?:app)?\.com/api/webhooks)/)[A-Za-z0-9/_-]{16,256}",
    0,
    lambda m: f"{m.group(1)}{_token('api_key')}",
)

_SECRET_KEYS = [
    r"secret[_.-]?access[_.-]?key",
    r"access[_.-]?key[_.-]?(?:id|secret)",
    r"(?:client|app|consumer|webhook|api|shared)[_.-]?secret",
    r"(?:secret|private|signing|encryption|account|shared[_.-]?access|master|session)[_.-]?key",
    r"api[_.-]?(?:key|token)",
    r"apikey",
    r"(?:access|auth|refresh|id|bearer|session|csrf|xsrf)[_.-]?token",
    r"passphrase",
    r"password",
    r"passwd",
    r"secret",
    r"token",
    r"signature",
    r"sig",
]
_WEAK_KEYS = frozenset({"token", "signature", "sig"})
_CURSOR_PREFIX = re.compile(r"(?:^|[_.-])(?:next|prev|previous|page|continuation|pagination|cursor|sync)[_.-]", _I)


def _secret(m: re.Match[str]) -> str:
    key, sep, dq, sq, bare = m.group(1) or "", m.group(2) or "", m.group(3), m.group(4), m.group(5)
    value = dq if dq is not None else sq if sq is not None else bare or ""
    if _is_redacted(value) or status_or_placeholder(value):
        return m.group(0)
    if _CURSOR_PREFIX.search(key):
        return m.group(0)
    if key.lower() in _WEAK_KEYS and not credential_like(value):
        return m.group(0)
    quote = '"' if dq is not None else "'" if sq is not None else ""
    return f"{key}{sep}{quote}{_token('secret_value')}{quote}"


_secret_value = _rule(
    r"(?<![\w.-])((?:[A-Za-z0-9]{0,24}[_.-]){0,4}(?:"
    + "|".join(_SECRET_KEYS)
    + r"))([\"']?\s{0,4}(?:=>|:=|[:=])\s{0,4})(?:\"([^\"\n]{1,512})\"|'([^'\n]{1,512})'|([^\s\"',;&)}<>\]]{1,512}))",
    _I,
    _secret,
)

_labelled_hex = _rule(
    _NB
    + r"((?:secret|key|token|session|signature|hmac|salt|cookie|password|passwd|apikey|api[-_ ]key|private[-_ ]key)s?(?:\s{0,4}[:=]\s{0,4}|\s{1,4})[\"']?)([0-9a-fA-F]{32,4096})"
    + _NA,
    _I,
    lambda m: f"{m.group(1)}{_token('hex')}",
)

_email = _rule(
    r"(?<![\w.%+-])[\w.%+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){0,8}\." + _LETTER + "{2,24}" + _NA,
    0,
    lambda m: _token("email"),
)

_ALNUM = re.compile(r"[A-Za-z0-9]")


def _iban(m: re.Match[str]) -> str:
    found = m.group(0)
    length = IBAN_LENGTHS.get(found[:2])
    if not length:
        return found
    count = 0
    cut = -1
    for i, ch in enumerate(found):
        if ch != " ":
            count += 1
            if count == length:
                cut = i + 1
                break
    if cut < 0:
        return found
    end = m.end()
    following = found[cut] if cut < len(found) else (m.string[end] if end < len(m.string) else "")
    if following and _ALNUM.match(following):
        return found
    compact = found[:cut].replace(" ", "")
    if not iban_valid(compact):
        return found
    return _token("iban", f"{compact[:4]}…{compact[-2:]}") + found[cut:]


_iban_rule = _rule(r"(?<![A-Za-z0-9])[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]){11,34}", 0, _iban)


def _card(m: re.Match[str]) -> str:
    digits = re.sub(r"[ -]", "", m.group(0))
    ok = 13 <= len(digits) <= 19 and card_prefix_valid(digits) and luhn_valid(digits)
    return _token("card") if ok else m.group(0)


_card_rule = _rule(
    r"(?<![0-9A-Za-z_.,])(?<![0-9][ -])(?:[0-9]{13,19}|[0-9]{4}([ -])[0-9]{4}\1[0-9]{4}\1[0-9]{1,4}(?:\1[0-9]{1,3})?|[0-9]{4}([ -])[0-9]{6}\2[0-9]{4,5})(?![0-9A-Za-z_])(?![.,]?[0-9])(?![ -][0-9])",
    0,
    _card,
)

SCRUB_RULES: Final[tuple[Callable[[str], str], ...]] = (
    _redact_private_keys,
    _url_password,
    _authorization_header,
    _bearer_in_prose,
    _jwt,
    _webhook_urls,
    _vendor_tokens,
    _bare_sk_key,
    _secret_value,
    _labelled_hex,
    _email,
    _iban_rule,
    _card_rule,
)
"""Every rule in the TypeScript order: armoured keys and URLs, credentials, then personal data."""


def scrub_text(text: str) -> str:
    """Replaces every recognised secret in ``text`` with a ``[redacted:<kind>]`` token. Idempotent."""
    long = len(text) > SCRUB_MAX_INPUT
    out = text[:SCRUB_MAX_INPUT] if long else text
    for rule in SCRUB_RULES:
        out = rule(out)
    return out + TRUNCATED_MARK if long else out


def looks_sensitive(text: str) -> bool:
    """True when :func:`scrub_text` would change ``text``."""
    return scrub_text(text) != text
