/** Why a webhook URL is refused, or null when it may be used. */
export type WebhookUrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

const PRIVATE_V4: readonly [number, number][] = [
  // [network as a 32-bit number, prefix length]
  [0x00000000, 8],
  [0x0a000000, 8],
  [0x64400000, 10],
  [0x7f000000, 8],
  [0xa9fe0000, 16],
  [0xac100000, 12],
  [0xc0a80000, 16],
  [0xc6120000, 15],
];

function v4Number(host: string): number | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

/** Whether an IPv4 dotted quad is loopback, private, link-local, CGNAT, benchmark or "this network". */
export function isPrivateIPv4(host: string): boolean {
  const n = v4Number(host);
  if (n === null) return false;
  return PRIVATE_V4.some(([net, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(net / 2 ** (32 - bits)));
}

/** Whether an IPv6 literal (without brackets) is loopback, unspecified, unique-local, link-local or a mapped private IPv4. */
export function isPrivateIPv6(host: string): boolean {
  const h = host.toLowerCase();
  if (h === "::1" || h === "::") return true;
  const mapped = h.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/)?.[1];
  if (mapped) return isPrivateIPv4(mapped);
  const hexMapped = h.match(/^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (hexMapped) {
    const n = parseInt(hexMapped[1]!, 16) * 65536 + parseInt(hexMapped[2]!, 16);
    return isPrivateIPv4([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join("."));
  }
  const first = parseInt(h.split(":")[0] || "0", 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}

/** Whether an address (IPv4 or IPv6, as DNS answers it) is one a webhook may not reach without the opt-in. */
export const isPrivateAddress = (address: string) => (address.includes(":") ? isPrivateIPv6(address) : isPrivateIPv4(address));

/**
 * Checks a webhook URL as written: http or https, no credentials in it, and (unless `allowPrivate`)
 * no loopback or private host. Names are resolved again at each delivery (server/alerts), since a
 * public name can point at a private address.
 */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): WebhookUrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { ok: false, reason: `only http and https URLs are allowed, not ${url.protocol.replace(/:$/, "")}` };
  if (url.username || url.password) return { ok: false, reason: "a webhook URL may not carry credentials; the body is signed instead" };
  if (allowPrivate) return { ok: true, url };
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "").toLowerCase();
  const local = host === "localhost" || host.endsWith(".localhost") || isPrivateAddress(host);
  if (local) return { ok: false, reason: `${host} is a loopback or private address; set FAULTLINE_ALERT_ALLOW_PRIVATE=1 to allow it` };
  return { ok: true, url };
}
