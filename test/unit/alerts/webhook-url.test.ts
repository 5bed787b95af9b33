import { describe, expect, it } from "vitest";
import { checkWebhookUrl } from "@/lib/alerts/webhook-url";

const verdict = (url: string, allowPrivate = false) => {
  const c = checkWebhookUrl(url, allowPrivate);
  return c.ok ? c.url.href : c.reason;
};

describe("checkWebhookUrl", () => {
  it("accepts public http and https URLs as written", () => {
    expect(verdict("https://hooks.slack.com/services/T/B/X")).toBe("https://hooks.slack.com/services/T/B/X");
    expect(verdict("http://8.8.8.8:8080/hook")).toBe("http://8.8.8.8:8080/hook");
    expect(verdict("https://[2001:4860::8888]/h")).toBe("https://[2001:4860::8888]/h");
  });

  it("refuses other schemes, credentials and non-URLs", () => {
    expect(verdict("ftp://example.com/x")).toBe("only http and https URLs are allowed, not ftp");
    expect(verdict("javascript:alert(1)")).toBe("only http and https URLs are allowed, not javascript");
    expect(verdict("https://a:b@example.com/")).toBe("a webhook URL may not carry credentials; the body is signed instead");
    expect(verdict("not a url")).toBe("not a URL");
  });

  it("refuses loopback, private, link-local and mapped addresses unless allowed, however they are spelled", () => {
    const refused = (host: string) => `${host} is a loopback or private address; set FAULTLINE_ALERT_ALLOW_PRIVATE=1 to allow it`;
    expect(verdict("http://localhost:3000/")).toBe(refused("localhost"));
    expect(verdict("http://api.localhost/")).toBe(refused("api.localhost"));
    expect(verdict("http://127.0.0.1/")).toBe(refused("127.0.0.1"));
    // WHATWG URL parsing turns these into 127.0.0.1 before the check sees them.
    expect(verdict("http://2130706433/")).toBe(refused("127.0.0.1"));
    expect(verdict("http://0x7f.1/")).toBe(refused("127.0.0.1"));
    expect(verdict("http://10.1.2.3/")).toBe(refused("10.1.2.3"));
    expect(verdict("http://172.31.255.255/")).toBe(refused("172.31.255.255"));
    expect(verdict("http://192.168.0.10/")).toBe(refused("192.168.0.10"));
    expect(verdict("http://169.254.169.254/latest/meta-data")).toBe(refused("169.254.169.254"));
    expect(verdict("http://100.64.0.1/")).toBe(refused("100.64.0.1"));
    expect(verdict("http://0.0.0.0/")).toBe(refused("0.0.0.0"));
    expect(verdict("http://[::1]/")).toBe(refused("::1"));
    expect(verdict("http://[fd00::1]/")).toBe(refused("fd00::1"));
    expect(verdict("http://[fe80::1]/")).toBe(refused("fe80::1"));
    expect(verdict("http://[::ffff:127.0.0.1]/")).toBe(refused("::ffff:7f00:1"));
    expect(verdict("http://172.32.0.1/")).toBe("http://172.32.0.1/");
    expect(verdict("http://127.0.0.1:8080/hook", true)).toBe("http://127.0.0.1:8080/hook");
  });
});
