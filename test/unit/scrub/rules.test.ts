import { describe, expect, it } from "vitest";
import { cardPrefixValid, ibanValid, luhnValid, scrubText } from "@/lib/contracts/scrub";

// One block per rule of lib/contracts/scrub/rules.ts: exact outputs for what it redacts and for the
// nearest thing it must leave alone. Vendor-shaped values are assembled so this file itself does
// not look like a leaked credential to secret scanners.
const p = (...parts: string[]) => parts.join("");
const r = (n: number, unit: string) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

describe("private_key (PEM blocks)", () => {
  it("redacts every private kind up to the END line and keeps what follows", () => {
    for (const label of ["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY", "DSA PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "OPENSSH PRIVATE KEY", "PGP PRIVATE KEY BLOCK"]) {
      expect(scrubText(`x -----BEGIN ${label}-----\nMIIBOgIBAAJBAKj34GkxFhD9\n-----END ${label}----- y`)).toBe("x [redacted:private_key] y");
    }
  });
  it("redacts legacy encrypted headers and RFC 4716 armour", () => {
    expect(scrubText("-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,2A3C\n\nMIIEow==\n-----END RSA PRIVATE KEY-----")).toBe("[redacted:private_key]");
    expect(scrubText("---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nP2/56wAAA\n---- END SSH2 ENCRYPTED PRIVATE KEY ----")).toBe("[redacted:private_key]");
  });
  it("redacts a block cut off before its END line, to the end of its body", () => {
    expect(scrubText('failed: "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBg" at line 3')).toBe('failed: "[redacted:private_key]" at line 3');
  });
  it("leaves certificates and public keys (public by definition)", () => {
    const cert = "-----BEGIN CERTIFICATE-----\nMIIC+zCCAeOgAwIBAgIJAL\n-----END CERTIFICATE-----";
    const pub = "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYI\n-----END PUBLIC KEY-----";
    expect(scrubText(cert)).toBe(cert);
    expect(scrubText(pub)).toBe(pub);
  });
});

describe("url_password", () => {
  it("keeps the user and host, drops the password", () => {
    expect(scrubText("redis://default:s3cretPw@cache:6379/0")).toBe("redis://default:[redacted:url_password]@cache:6379/0");
  });
  it("leaves URLs with a port but no credentials", () => {
    expect(scrubText("http://localhost:3000/@fs/app.ts")).toBe("http://localhost:3000/@fs/app.ts");
  });
});

describe("bearer (Authorization header and Bearer/Basic credentials)", () => {
  it("redacts any Authorization value and keeps the scheme", () => {
    expect(scrubText("Authorization: Bearer abc")).toBe("Authorization: Bearer [redacted:bearer]");
    expect(scrubText("authorization=Basic dXNlcjpwYXNz")).toBe("authorization=Basic [redacted:bearer]");
    expect(scrubText("Proxy-Authorization: SSWS 00QCjAl4MlV-WPXM")).toBe("Proxy-Authorization: SSWS [redacted:bearer]");
    expect(scrubText('{"Authorization": "opaque"}')).toBe('{"Authorization": "[redacted:bearer]"}');
  });
  it("leaves Authorization followed by a state word", () => {
    expect(scrubText("Authorization: missing")).toBe("Authorization: missing");
    expect(scrubText("Authorization header is required")).toBe("Authorization header is required");
  });
  it("redacts a credential-shaped word after Bearer/Basic in prose", () => {
    expect(scrubText("sent Bearer 9f8c2b1e77aa then 401")).toBe("sent Bearer [redacted:bearer] then 401");
    expect(scrubText("sent basic YWRtaW46cGFzc3dvcmQ=")).toBe("sent basic [redacted:bearer]");
  });
  it("redacts a credential closed by ] or } and keeps the bracket (issue 25)", () => {
    expect(scrubText("[Bearer AbCdEfGhIjKlMnOp]")).toBe("[Bearer [redacted:bearer]]");
    expect(scrubText("{auth: Bearer AbCdEfGhIjKlMnOp}")).toBe("{auth: Bearer [redacted:bearer]}");
    expect(scrubText("headers={Authorization: Bearer AbCdEfGhIjKlMnOp}")).toBe("headers={Authorization: Bearer [redacted:bearer]}");
    expect(scrubText("[Authorization: AbCdEfGhIjKlMnOp]")).toBe("[Authorization: [redacted:bearer]]");
    expect(scrubText("{Bearer 9f8c2b1e77aa}")).toBe("{Bearer [redacted:bearer]}");
    expect(scrubText(scrubText("[Bearer AbCdEfGhIjKlMnOp]"))).toBe("[Bearer [redacted:bearer]]");
    expect(scrubText("[Authorization: missing]")).toBe("[Authorization: missing]");
  });
  it("leaves Bearer and Basic used as words", () => {
    for (const t of ["The Basic plan has no webhooks", "the Bearer of this ticket", "missing Bearer token", 'WWW-Authenticate: Bearer realm="api"', "Basic Authentication is off"]) {
      expect(scrubText(t)).toBe(t);
    }
  });
});

describe("jwt", () => {
  it("redacts a three-part token", () => {
    expect(scrubText("id eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_nature-1 end")).toBe("id [redacted:jwt] end");
  });
  it("leaves a lone base64 JSON segment", () => {
    expect(scrubText("cursor eyJwYWdlIjoyfQ")).toBe("cursor eyJwYWdlIjoyfQ");
  });
});

describe("api_key (vendor prefixes)", () => {
  const cases: [string, string][] = [
    ["Google", p("AI", "za", r(35, "Sy9dK-x_"))],
    ["GitHub", p("gh", "p_", r(36, "aB3"))],
    ["GitHub fine-grained", p("github", "_pat_", r(40, "11AB_cd"))],
    ["GitLab", p("gl", "pat-", r(20, "xY9_"))],
    ["npm", p("np", "m_", r(36, "Qw8"))],
    ["OpenAI project", p("sk-", "proj-", r(40, "Ab3_-"))],
    ["OpenAI legacy", p("sk-", r(48, "Ab3dE"))],
    ["Anthropic", p("sk-", "ant-", "api03-", r(40, "Ab3_-"))],
    ["Stripe", p("sk", "_live_", r(24, "4eC39"))],
    ["Stripe webhook", p("wh", "sec_", r(32, "aB3"))],
    ["Slack", p("xo", "xb-", "1234567890-", r(24, "aB3"))],
    ["AWS key id", p("AK", "IA", r(16, "IOSFODNN7"))],
    ["Twilio", p("S", "K", r(32, "0a9f"))],
    ["SendGrid", p("S", "G.", r(22, "aB3-"), ".", r(43, "xY9_"))],
    ["Hugging Face", p("h", "f_", r(34, "aBcD"))],
    ["Mailgun", p("ke", "y-", r(32, "0a9f"))],
    ["DigitalOcean", p("do", "p_v1_", r(64, "0a9f"))],
    ["Databricks", p("da", "pi", r(32, "0a9f"))],
    ["Vault", p("hv", "s.", r(90, "aB3-"))],
    ["Google OAuth secret", p("GOC", "SPX-", r(28, "aB3-"))],
  ];
  it.each(cases)("redacts a %s token", (_vendor, key) => {
    expect(scrubText(`auth failed (${key}) retry`)).toBe("auth failed ([redacted:api_key]) retry");
  });
  it("keeps a webhook URL's host and route", () => {
    expect(scrubText(p("POST https://hooks.slack", ".com/services/T0A1B2C3D/B0A1B2C3D/", r(24, "aB3"), " 404"))).toBe(
      "POST https://hooks.slack.com/services/[redacted:api_key] 404",
    );
  });
  it("leaves SKUs, constraint names, paths and short prefixes", () => {
    for (const t of ["SKU sk-1044-oak-xl", "item pk-24-sparkling-water", "constraint pk_bookings_v2_id", "/srv/rk_daily_2026-01-15.csv", "pk_live keys only", "sk-short", "xoxb-", "hf_cache_dir", "key-value store"]) {
      expect(scrubText(t)).toBe(t);
    }
  });
});

describe("secret_value (key = value by key name)", () => {
  it("redacts values of secret-named keys, with any prefix, keeping key and quotes", () => {
    expect(scrubText("aws_secret_access_key=wJalrXUtnFEMI/K7MDENG")).toBe("aws_secret_access_key=[redacted:secret_value]");
    expect(scrubText("DB_PASSWORD: 'correct horse battery'")).toBe("DB_PASSWORD: '[redacted:secret_value]'");
    expect(scrubText('{"client_secret":"abc~def"}')).toBe('{"client_secret":"[redacted:secret_value]"}');
    expect(scrubText("X-Api-Key: 7d1b9e3f")).toBe("X-Api-Key: [redacted:secret_value]");
    expect(scrubText("Password=P@ss;Encrypt=True")).toBe("Password=[redacted:secret_value];Encrypt=True");
    expect(scrubText("?sig=Zx8%2Bq3&se=2026")).toBe("?sig=[redacted:secret_value]&se=2026");
  });
  it("leaves state words, placeholders, counters and cursors", () => {
    for (const t of ["token: expired", "token: invalid.", "api_key: required", "password: must be 12 characters", "secret: ***", "api_key=${API_KEY}", "password=<your password>", "max_tokens=4096", "input_tokens: 15320", "Unexpected token: '}'", "next_page_token=CiAKGjBpNDd2", "token_type: bearer"]) {
      expect(scrubText(t)).toBe(t);
    }
  });
});

describe("hex (labelled long hex only)", () => {
  it("redacts a long hex run labelled as a secret", () => {
    expect(scrubText("hmac secret 0123456789abcdef0123456789abcdef bad")).toBe("hmac secret [redacted:hex] bad");
    expect(scrubText("cookie session=0123456789abcdef0123456789abcdef;")).toBe("cookie session=[redacted:hex];");
  });
  it("leaves trace ids, git SHAs, digests and checksums", () => {
    for (const t of ["trace 4bf92f3577b34da6a3ce929d0e0e4736", "commit 9fceb02d0ae598e95dc970b74767f19372d61af8", "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "md5 d41d8cd98f00b204e9800998ecf8427e"]) {
      expect(scrubText(t)).toBe(t);
    }
  });
});

describe("email", () => {
  it("redacts an address", () => {
    expect(scrubText("to ada@example.co.uk now")).toBe("to [redacted:email] now");
  });
  it("leaves a local host and a package spec", () => {
    expect(scrubText("user@localhost and zod@4.1.0")).toBe("user@localhost and zod@4.1.0");
  });
});

describe("iban (mod-97 with registered lengths)", () => {
  it("redacts spaced and compact IBANs with a short hint", () => {
    expect(scrubText("to DE89 3704 0044 0532 0130 00 failed")).toBe("to [redacted:iban DE89…00] failed");
    expect(scrubText("to GB82WEST12345698765432.")).toBe("to [redacted:iban GB82…32].");
    expect(scrubText("to CH93 0076 2011 6238 5295 7 EUR")).toBe("to [redacted:iban CH93…57] EUR");
  });
  it("leaves wrong checksums, wrong lengths and unknown countries", () => {
    for (const t of ["DE89 3704 0044 0532 0130 01", "DE89370400440532013", "ZZ12 3456 7890 1234 56", "AB12CDEF34567890123"]) expect(scrubText(t)).toBe(t);
  });
  it("checks mod 97 and the country length", () => {
    expect(ibanValid("DE89370400440532013000")).toBe(true);
    expect(ibanValid("DE89370400440532013001")).toBe(false);
    expect(ibanValid("DE8937040044053201300")).toBe(false);
  });
});

describe("card (groupings, issuer prefix, Luhn)", () => {
  it("redacts contiguous, 4-4-4-4 and 4-6-5 numbers", () => {
    expect(scrubText("card 4242424242424242 x")).toBe("card [redacted:card] x");
    expect(scrubText("card 5555-5555-5555-4444 x")).toBe("card [redacted:card] x");
    expect(scrubText("card 3782 822463 10005 x")).toBe("card [redacted:card] x");
  });
  it("leaves thousands-grouped amounts, non-network prefixes and Luhn failures", () => {
    for (const t of ["amount: 5 105 105 105 105 100 IDR", "order 1234567812345670", "card 4242424242424241", "at 1767225600009", "4242424242424242.00 EUR"]) {
      expect(scrubText(t)).toBe(t);
    }
  });
  it("checks Luhn and the issuer table", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(cardPrefixValid("378282246310005")).toBe(true);
    expect(cardPrefixValid("1767225600009")).toBe(false);
  });
});

describe("scrubText as a whole", () => {
  it("is idempotent over every rule's output", () => {
    const text = "Authorization: Basic dXNlcjpwYXNz; to DE89 3704 0044 0532 0130 00; password=hunter2; ada@example.com; key 0123456789abcdef0123456789abcdef";
    const once = scrubText(text);
    expect(once).toBe(
      "Authorization: Basic [redacted:bearer]; to [redacted:iban DE89…00]; password=[redacted:secret_value]; [redacted:email]; key [redacted:hex]",
    );
    expect(scrubText(once)).toBe(once);
  });
});
