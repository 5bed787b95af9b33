/**
 * A realistic corpus for the scrubber: secrets as they show up in agent tool errors, and harmless
 * values that merely look like them. Vendor tokens are assembled from a seeded generator and split
 * prefixes, so that this file is not itself flagged by secret scanners while the scrubber still sees
 * full-length, correctly shaped tokens.
 */

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const B64URL = `${ALNUM}-_`;

/** Deterministic pseudo-random text (mulberry32), so every run scrubs the same values. */
function randomText(seed: number, length: number, alphabet: string): string {
  let state = seed >>> 0;
  let out = "";
  for (let i = 0; i < length; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    out += alphabet[Math.floor(r * alphabet.length)];
  }
  return out;
}

const p = (...parts: string[]) => parts.join("");

export interface SecretCase {
  /** What the value is, for test names. */
  name: string;
  text: string;
  /** Substrings that must not survive scrubbing. */
  secrets: string[];
  /** The redaction kind expected in the output. */
  kind: string;
}

const awsSecret = p("wJalrXUtnFEMI/K7MDENG/", "bPxRfiCYzq7Lm2Vd8Hs4Tn");
const googleKey = p("AI", "za", randomText(1, 35, B64URL));
const githubPat = p("gh", "p_", randomText(2, 36, ALNUM));
const gitlabPat = p("gl", "pat-", randomText(3, 20, ALNUM));
const npmToken = p("np", "m_", randomText(4, 36, ALNUM));
const openAiKey = p("sk-", "proj-", randomText(5, 48, B64URL), randomText(6, 40, ALNUM));
const anthropicKey = p("sk-", "ant-", "api03-", randomText(7, 93, B64URL), "AA");
const stripeLive = p("sk", "_live_", "51", randomText(8, 96, ALNUM));
const stripeWebhook = p("wh", "sec_", randomText(9, 32, ALNUM));
const slackBot = p("xo", "xb-", "7291034856", "-", "4817265039184", "-", randomText(10, 24, ALNUM));
const slackWebhook = p("https://hooks.slack", ".com/services/", "T04ABCD1E", "/", "B07XYZ9K2LM", "/", randomText(11, 24, ALNUM));
const twilioKey = p("S", "K", randomText(12, 32, HEX));
const sendgridKey = p("S", "G.", randomText(13, 22, B64URL), ".", randomText(14, 43, B64URL));
const hfToken = p("h", "f_", randomText(15, 34, ALNUM.slice(0, 52)));
const jwt = p(
  "ey",
  "JhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.",
  "eyJzdWIiOiJzdmMtYmlsbGluZyIsImV4cCI6MTc2NzIyNTYwMH0.",
  randomText(16, 86, B64URL),
);
const gcpClientSecret = p("GOC", "SPX-", randomText(17, 28, B64URL));
const doToken = p("do", "p_v1_", randomText(18, 64, HEX));
const mailgunKey = p("ke", "y-", randomText(19, 32, HEX));
const databricksToken = p("da", "pi", randomText(20, 32, HEX));
const vaultToken = p("hv", "s.", randomText(21, 90, B64URL));
const pypiToken = p("py", "pi-", "AgEIcHlwaS5vcmc", randomText(22, 70, B64URL));
const azureAccountKey = `${randomText(23, 86, ALNUM)}==`;
const hexSecret = randomText(24, 32, HEX);
const sessionHex = randomText(25, 64, HEX);
const pemBody = (seed: number) =>
  [0, 1, 2, 3].map((i) => randomText(seed + i, 64, `${ALNUM}+/`)).join("\n");

export const SECRETS: readonly SecretCase[] = [
  { name: "IBAN, spaced", text: "refund to DE89 3704 0044 0532 0130 00 failed: account closed", secrets: ["3704 0044 0532 0130"], kind: "iban" },
  { name: "IBAN, compact", text: "payout_failed: GB82WEST12345698765432 rejected by the receiving bank", secrets: ["WEST12345698765432"], kind: "iban" },
  { name: "IBAN with letters in the BBAN", text: "SEPA mandate for FR14 2004 1010 0505 0001 3M02 606 is revoked", secrets: ["2004 1010 0505 0001 3M02"], kind: "iban" },
  { name: "IBAN in a JSON field", text: '{"iban":"NL91ABNA0417164300","reason":"AC04 closed account"}', secrets: ["ABNA0417164300"], kind: "iban" },
  { name: "labelled AWS secret (ini)", text: `botocore: aws_secret_access_key=${awsSecret} region=eu-west-1 invalid`, secrets: [awsSecret], kind: "secret_value" },
  { name: "labelled AWS secret (env, quoted)", text: `AWS_SECRET_ACCESS_KEY: '${awsSecret}' was rejected (SignatureDoesNotMatch)`, secrets: [awsSecret], kind: "secret_value" },
  {
    name: "encrypted PKCS#8 PEM",
    text: `cannot decrypt key:\n-----BEGIN ENCRYPTED PRIVATE KEY-----\n${pemBody(30)}\n-----END ENCRYPTED PRIVATE KEY-----\nwrong passphrase`,
    secrets: [pemBody(30).slice(0, 64)],
    kind: "private_key",
  },
  {
    name: "OpenSSH private key",
    text: `deploy key rejected: -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ${pemBody(40)}\n-----END OPENSSH PRIVATE KEY-----`,
    secrets: ["b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ", pemBody(40).slice(0, 64)],
    kind: "private_key",
  },
  {
    name: "PGP private key block",
    text: `gpg import failed\n-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGXa${pemBody(50)}\n=Qk2f\n-----END PGP PRIVATE KEY BLOCK-----`,
    secrets: [pemBody(50).slice(0, 64)],
    kind: "private_key",
  },
  {
    name: "legacy encrypted RSA PEM with headers",
    text: `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,2A3C4E5F60718293A4B5C6D7E8F90A1B\n\n${pemBody(60)}\n-----END RSA PRIVATE KEY-----`,
    secrets: [pemBody(60).slice(0, 64)],
    kind: "private_key",
  },
  {
    name: "EC private key inside JSON (escaped newlines)",
    text: `{"type":"service_account","private_key":"-----BEGIN EC PRIVATE KEY-----\\n${pemBody(70).replace(/\n/g, "\\n")}\\n-----END EC PRIVATE KEY-----\\n"}`,
    secrets: [pemBody(70).slice(0, 64)],
    kind: "private_key",
  },
  {
    name: "PEM cut off before its END line",
    text: `load_pem_private_key failed near -----BEGIN PRIVATE KEY-----\n${pemBody(80).slice(0, 150)}`,
    secrets: [pemBody(80).slice(0, 64)],
    kind: "private_key",
  },
  { name: "Google API key", text: `places: API key ${googleKey} is not authorized for this referer`, secrets: [googleKey], kind: "api_key" },
  { name: "GitHub PAT", text: `git push: remote: Invalid username or token ${githubPat}.`, secrets: [githubPat], kind: "api_key" },
  { name: "GitLab PAT", text: `GET /api/v4/projects (PRIVATE-TOKEN ${gitlabPat}) -> 401`, secrets: [gitlabPat], kind: "api_key" },
  { name: "npm token in .npmrc", text: `npm ERR! //registry.npmjs.org/:_authToken=${npmToken} is expired`, secrets: [npmToken], kind: "api_key" },
  { name: "OpenAI project key", text: `Incorrect API key provided: ${openAiKey}. You can find your API key at the dashboard.`, secrets: [openAiKey], kind: "api_key" },
  { name: "Anthropic key", text: `authentication_error: invalid x-api-key ${anthropicKey}`, secrets: [anthropicKey], kind: "api_key" },
  { name: "Stripe live secret key", text: `stripe.error.AuthenticationError: Invalid API Key provided: ${stripeLive}`, secrets: [stripeLive], kind: "api_key" },
  { name: "Stripe webhook secret", text: `signature check used ${stripeWebhook} and failed`, secrets: [stripeWebhook], kind: "api_key" },
  { name: "Slack bot token", text: `slack_sdk: not_authed for ${slackBot}`, secrets: [slackBot], kind: "api_key" },
  { name: "Slack incoming webhook URL", text: `POST ${slackWebhook} -> 404 no_service`, secrets: [slackWebhook.slice(-24)], kind: "api_key" },
  { name: "Twilio API key", text: `twilio: 20003 Authenticate with ${twilioKey} failed`, secrets: [twilioKey], kind: "api_key" },
  { name: "SendGrid key", text: `sendgrid 401: The provided authorization grant is invalid (${sendgridKey})`, secrets: [sendgridKey], kind: "api_key" },
  { name: "Hugging Face token", text: `hub: 401 Client Error for token ${hfToken}`, secrets: [hfToken], kind: "api_key" },
  { name: "JWT in an Authorization header", text: `upstream 401 with Authorization: Bearer ${jwt}`, secrets: [jwt.slice(0, 40), jwt.slice(-40)], kind: "bearer" },
  { name: "opaque bearer token in prose", text: "token refresh: Bearer 9f8c2b1e77aa4c1eb0a25d6c rejected by idp", secrets: ["9f8c2b1e77aa4c1eb0a25d6c"], kind: "bearer" },
  { name: "Basic credentials", text: "proxy said 407 for Authorization: Basic c3ZjLWJpbGxpbmc6VHIwdWI0ZG9yJjM=", secrets: ["c3ZjLWJpbGxpbmc6VHIwdWI0ZG9yJjM="], kind: "bearer" },
  { name: "password in a database URL", text: "connect ECONNREFUSED postgres://svc_billing:Tr0ub4dor3x@db-primary.internal:5432/billing", secrets: ["Tr0ub4dor3x"], kind: "url_password" },
  { name: "password in an ADO connection string", text: "Login failed: Server=tcp:sql.internal,1433;User ID=app;Password=P@ssw0rd!2026;Encrypt=True", secrets: ["P@ssw0rd!2026"], kind: "secret_value" },
  { name: "OAuth client secret in JSON", text: '{"client_id":"web-app","client_secret":"8Q~x7Y.pL2vN_kR4tZ0wS9mB3cD6fG1hJ5"}', secrets: ["8Q~x7Y.pL2vN_kR4tZ0wS9mB3cD6fG1hJ5"], kind: "secret_value" },
  { name: "API key in a query string", text: "GET https://api.weather.example/v1/forecast?q=Paris&api_key=3c5e7a9b1d2f4a6c&units=metric timed out", secrets: ["3c5e7a9b1d2f4a6c"], kind: "secret_value" },
  { name: "X-Api-Key header", text: "403 Forbidden; request had X-Api-Key: 7d1b9e3f2c4a4e8b9a6d1f0e", secrets: ["7d1b9e3f2c4a4e8b9a6d1f0e"], kind: "secret_value" },
  { name: "e-mail address", text: "notify_customer failed for maria.lopez@acme-travel.com: mailbox full", secrets: ["maria.lopez@acme-travel.com"], kind: "email" },
  { name: "card number, grouped", text: "charge declined for card 4242 4242 4242 4242: insufficient_funds", secrets: ["4242 4242 4242 4242"], kind: "card" },
  { name: "Amex, 4-6-5 grouping", text: "card 3782 822463 10005 expired last month", secrets: ["822463"], kind: "card" },
  { name: "labelled hex secret", text: `hmac secret ${hexSecret} does not match the signature`, secrets: [hexSecret], kind: "hex" },
  { name: "session key in a cookie", text: `cookie session=${sessionHex}; Path=/; HttpOnly rejected`, secrets: [sessionHex], kind: "hex" },
  { name: "Google OAuth client secret", text: `invalid_client: ${gcpClientSecret} was deleted`, secrets: [gcpClientSecret], kind: "api_key" },
  { name: "Azure storage account key", text: `DefaultEndpointsProtocol=https;AccountName=faultlinelogs;AccountKey=${azureAccountKey};EndpointSuffix=core.windows.net`, secrets: [azureAccountKey.slice(0, 40)], kind: "secret_value" },
  { name: "DigitalOcean token", text: `doctl: Unable to authenticate you (${doToken})`, secrets: [doToken], kind: "api_key" },
  { name: "Mailgun key", text: `mailgun 401 Forbidden using ${mailgunKey}`, secrets: [mailgunKey], kind: "api_key" },
  { name: "Databricks token", text: `databricks: Invalid access token ${databricksToken}`, secrets: [databricksToken], kind: "api_key" },
  { name: "Vault token", text: `vault: permission denied (${vaultToken})`, secrets: [vaultToken], kind: "api_key" },
  { name: "PyPI token", text: `twine upload: 403 for ${pypiToken}`, secrets: [pypiToken], kind: "api_key" },
];

/** Harmless values shaped like secrets; scrubbing must leave every one of them exactly as it was. */
export const LOOK_ALIKES: readonly string[] = [
  "upstream 502 for trace 4bf92f3577b34da6a3ce929d0e0e4736 span 00f067aa0ba902b7",
  "deployed commit 9fceb02d0ae598e95dc970b74767f19372d61af8 to prod before the failure",
  "regression since a94a8fe5ccb19ba61c4c0873d391e987982fbbd3 (revert pending)",
  "pull failed: image sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 not found",
  "checksum md5 d41d8cd98f00b204e9800998ecf8427e matched, upload skipped",
  "inventory_check: SKU sk-1044-oak-xl is out of stock in warehouse 3",
  "item pk-24-sparkling-water unavailable",
  "SQLITE_CONSTRAINT: UNIQUE constraint failed: pk_bookings_v2_id",
  "ENOENT: no such file or directory, open '/srv/exports/rk_daily_2026-01-15.csv'",
  "charge failed: amount 5 105 105 105 105 100 IDR exceeds the daily limit",
  "The Basic plan does not include webhooks; upgrade to Pro",
  "the Bearer of this ticket must present ID at the gate",
  "auth failed: token: expired",
  "refresh rejected, token: invalid",
  "password: must be at least 12 characters",
  "SyntaxError: Unexpected token: '}' at position 42",
  "context_length_exceeded: max_tokens=4096 but only 2200 remain",
  "usage input_tokens: 15320, output_tokens: 2048",
  "run 550e8400-e29b-41d4-a716-446655440000 cancelled at 1767225600000",
  "retry scheduled for 2026-01-15T12:00:00.000Z (retry_after_ms=2000)",
  "order 1234567812345670 not found",
  "call the desk on +44 20 7946 0958 to rebook",
  "sdk faultline-runtime 0.1.0, release 2026.11.3",
  "missing Bearer token in the request",
  "Authorization header is required",
  "postgres://db-primary.internal:5432/billing connection refused",
  "tool_use_id toolu_01A09q90qw90lq917835lq9 has no result",
  "span_id=00f067aa0ba902b7 parent=4bf92f3577b34da6",
  "invoice INV-2026-000123 is overdue",
  "api_key: required",
  "client_secret: missing",
  "listen EADDRNOTAVAIL 2001:0db8:85a3:0000:0000:8a2e:0370:7334",
  "Basic authentication is disabled for this project",
  "cache key not found: user:42:profile",
  "secret rotation is scheduled for 2026-02-01",
  "the -----BEGIN CERTIFICATE----- block is malformed",
  "pk_live keys are not allowed in test mode",
  "next_page_token=CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA2 is stale",
  'WWW-Authenticate: Bearer realm="api", error="invalid_token"',
  "see https://docs.example.com/errors#rate_limit_exceeded",
  "user@localhost rejected the relay",
  "booking_not_cancellable: this fare is non-refundable",
];
