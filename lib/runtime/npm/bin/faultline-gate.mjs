#!/usr/bin/env node
// faultline-gate: asks a Faultline server whether a release may ship, for a CI step.
//   faultline-gate --url URL --key KEY --project ID --release NAME [--against RELEASE|contract.json] [--wait SECONDS] [--json]
// Exit codes: 0 pass, 1 SemVer violations, 2 could not decide (too few calls, unknown release, no
// predecessor, findings between releases that are not versions, drift not folded in time,
// unreachable server, refused key, bad arguments).
// Dependency-free on purpose (node >= 20 builtins and global fetch): CI images install nothing for it.
/* global fetch -- Node 20+ has it built in; that is what keeps this script dependency-free. */
import { existsSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { URLSearchParams } from "node:url";

const USAGE =
  "usage: faultline-gate --url URL --key KEY --project ID --release NAME [--against RELEASE|contract.json] [--wait SECONDS] [--json]\n" +
  "  (--url and --key default to FAULTLINE_URL and FAULTLINE_GATE_KEY)";

const EXIT = { pass: 0, fail: 1, undecided: 2 };

function parseArgs(argv) {
  const out = { url: process.env.FAULTLINE_URL, key: process.env.FAULTLINE_GATE_KEY, project: "default", wait: "60", json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--json") out.json = true;
    else if (["--url", "--key", "--project", "--release", "--against", "--wait"].includes(arg) && argv[i + 1] !== undefined) out[arg.slice(2)] = argv[++i];
    else throw new Error(`unexpected argument ${arg}`);
  }
  if (!out.url || !out.release) throw new Error("--url and --release are required");
  if (!/^\d+(\.\d+)?$/.test(out.wait)) throw new Error("--wait takes a number of seconds");
  return out;
}

/** One gate request; the contract document (if any) goes as a POST body. */
async function ask(opts, contract) {
  const base = opts.url.replace(/\/+$/, "");
  const headers = opts.key ? { authorization: `Bearer ${opts.key}` } : {};
  if (contract) {
    return fetch(`${base}/api/v1/gate`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ project: opts.project, release: opts.release, against: contract }),
    });
  }
  const qs = new URLSearchParams({ project: opts.project, release: opts.release, ...(opts.against ? { against: opts.against } : {}) });
  return fetch(`${base}/api/v1/gate?${qs}`, { headers });
}

/** The answer once the server's drift fold has caught up (a fresh ingest may still be folding). */
async function gate(opts, contract) {
  const deadline = Date.now() + Number(opts.wait) * 1000;
  for (;;) {
    const res = await ask(opts, contract);
    const body = await res.json().catch(() => null);
    if (!res.ok) {
      const why = body?.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${res.status}`;
      return { error: `the server refused the request (${res.status} ${why})` };
    }
    if (body.upToDate || Date.now() >= deadline) return { answer: body };
    await sleep(500);
  }
}

const finding = (f) => `  [${f.severity}] ${f.kind} \`${f.code}\` on \`${f.tool}\` (${f.fromRelease} -> ${f.toRelease})\n    ${f.sentence}`;

function report(a) {
  const lines = [];
  const tools = a.comparisons.length + a.unjudged.length;
  const base =
    a.against.kind === "predecessor"
      ? a.comparisons.length === 1 ? "its previous release" : "their previous releases"
      : a.against.kind === "release" ? `release ${a.against.release}` : `the contract of ${a.against.release}`;
  lines.push(`Faultline gate: ${a.verdict.toUpperCase()} - ${a.message}`);
  lines.push(`project ${a.project}, release ${a.release}: ${a.comparisons.length} of ${tools} ${tools === 1 ? "tool" : "tools"} compared with ${base}`);
  for (const c of a.comparisons) lines.push(`  ${c.tool}: ${c.from} (${c.fromCalls} calls) -> ${c.to} (${c.toCalls} calls)`);
  if (a.unjudged.length > 0) lines.push(`Not judged (${a.unjudged.length}):`, ...a.unjudged.map((u) => `  ${u.tool}: ${u.why}`));
  if (a.violations.length > 0) lines.push("", `Violations (${a.violations.length}):`, ...a.violations.map(finding));
  if (a.otherFindings.length > 0) lines.push("", `Other findings, not violations (${a.otherFindings.length}):`, ...a.otherFindings.map(finding));
  if (a.improvements.length > 0) lines.push("", `Improvements, for information (${a.improvements.length}):`, ...a.improvements.map(finding));
  if (a.newCodes.length > 0) lines.push("", "New codes:", ...a.newCodes.map((c) => `  + \`${c.code}\` on \`${c.tool}\` (${c.calls} calls)`));
  if (a.removedCodes.length > 0) lines.push("", "Codes no longer seen:", ...a.removedCodes.map((c) => `  - \`${c.code}\` on \`${c.tool}\` (${c.calls} calls before)`));
  if (a.unchecked.length > 0) lines.push("", `Not checked against a document (${a.unchecked.length}):`, ...a.unchecked.map((u) => `  ${u.check}: ${u.why}`));
  if (!a.upToDate) lines.push("", "The server had not folded every ingested call yet: this answer may be stale.");
  return lines.join("\n");
}

async function main(argv) {
  let opts;
  try {
    opts = parseArgs(argv);
  } catch (error) {
    console.error(`${error.message}\n${USAGE}`);
    return 2;
  }
  let contract;
  if (opts.against && existsSync(opts.against)) {
    try {
      contract = JSON.parse(readFileSync(opts.against, "utf8"));
    } catch (error) {
      console.error(`Faultline gate: UNDECIDED - cannot read the contract ${opts.against}: ${error.message}`);
      return 2;
    }
  }
  let result;
  try {
    result = await gate(opts, contract);
  } catch (error) {
    console.error(`Faultline gate: UNDECIDED - cannot reach ${opts.url}: ${error.cause?.code ?? error.message}`);
    return 2;
  }
  if (result.error) {
    console.error(`Faultline gate: UNDECIDED - ${result.error}`);
    return 2;
  }
  const a = result.answer;
  console.log(opts.json ? JSON.stringify(a, null, 2) : report(a));
  // A stale answer must not pass a release whose last calls were never looked at.
  if (!a.upToDate && a.verdict === "pass") return 2;
  return EXIT[a.verdict] ?? 2;
}

process.exitCode = await main(process.argv.slice(2));
