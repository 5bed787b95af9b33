import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { reclassifyProject } from "@/server/jobs/reclassify-job";
import { DIALECTS, openTestStore } from "../../helpers/stores";
import { T0 } from "../otlp/fixtures";
import { errorType, sendOtlp, toolSpan } from "./fixtures";
import { codeSourceLabel, codeSourceOf } from "@/lib/classify/code-source";
import { groupKeyOf, groupParts } from "@/lib/classify/group-key";
import { comparableShape, toldShape } from "@/lib/drift/told-shape";

describe("message shapes, version 2", () => {
  it("masks short letter-digit ids whole, like numbers and quoted values", () => {
    expect(toldShape("seat 10A is taken", null)).toBe("seat <id> is taken");
    expect(toldShape("aircraft A320 is grounded", null)).toBe("aircraft <id> is grounded");
    expect(toldShape("gate B12 closed for flight LH400", null)).toBe("gate <id> closed for flight <id>");
    expect(toldShape("order ab12cd34 not found", null)).toBe("order <id> not found");
    expect(toldShape("seat 2A and seat 14C are taken", null)).toBe(toldShape("seat 31F and seat 9B are taken", null));
  });

  it("does not over-mask: words, quantities and technical terms keep their meaning", () => {
    expect(toldShape("Payment Declined By Issuer", null)).toBe("Payment Declined By Issuer");
    expect(toldShape("timed out after 30s (250ms budget), 3rd attempt, 2x backoff, 95% full", null)).toBe("timed out after <n> (<n> budget), <n> attempt, <n> backoff, <n> full");
    expect(toldShape("utf8 decode failed; sha256 mismatch; ipv6 only; S3 bucket on EC2; HTTP2 reset; base64 body", null)).toBe(
      "utf8 decode failed; sha256 mismatch; ipv6 only; S3 bucket on EC2; HTTP2 reset; base64 body",
    );
    expect(toldShape("error 404 on page 2", null)).toBe("error <n> on page <n>");
    expect(toldShape('error: seat_unavailable: seat "14C" on BK48213 until 2027-03-14T10:00Z', "seat_unavailable")).toBe("error: <code>: seat <value> on <id> until <time>");
  });

  it("groups failures that differ only by such ids", () => {
    const key = (message: string) => groupKeyOf(groupParts({ tool: "book", errorType: "SeatTakenError", message, httpStatus: null }));
    expect(key("seat 10A is taken")).toBe(key("seat 7C is taken"));
    expect(key("seat 10A is taken")).not.toBe(key("seat 10A is held"));
  });

  it("compares a shape stored before version 2 with its version-2 form", () => {
    // Version 1 masked the digits only: `seat <n>A`, `A<n>`, ordinals as `<n>st`, terms as `utf<n>`.
    expect(comparableShape("seat <n>A is taken on A<n>")).toBe(comparableShape(toldShape("seat 10A is taken on A320", null)));
    expect(comparableShape("retry on the <n>rd attempt")).toBe(comparableShape(toldShape("retry on the 3rd attempt", null)));
    expect(comparableShape("utf<n> decode failed")).toBe(comparableShape(toldShape("utf8 decode failed", null)));
    expect(comparableShape("seat <id> is taken")).not.toBe(comparableShape("seat <id> is held"));
  });
});

describe("where a code came from", () => {
  it("names the emitter, a project rule at its version, a pack rule, or none", () => {
    expect(codeSourceLabel(codeSourceOf({ code: "x", ruleId: null, ruleVersion: null, ruleName: null }))).toBe("sent by the emitter");
    expect(codeSourceLabel(codeSourceOf({ code: "x", ruleId: "r1", ruleVersion: 3, ruleName: "Seats" }))).toBe("set by rule “Seats” version 3");
    expect(codeSourceLabel(codeSourceOf({ code: "x", ruleId: "r1", ruleVersion: 3, ruleName: null }))).toBe("set by rule r1 version 3");
    expect(codeSourceLabel(codeSourceOf({ code: "rate_limited", ruleId: "builtin.http_429", ruleVersion: 1, ruleName: null }))).toBe("set by built-in rule builtin.http_429 (pack version 1)");
    expect(codeSourceLabel(codeSourceOf({ code: null, ruleId: null, ruleVersion: null, ruleName: null }))).toBe("no code: unclassified");
  });
});

describe.each(DIALECTS)("group keys of stored failures after the shape's version 2 (%s)", (dialect) => {
  let store: Store;
  beforeEach(async () => {
    store = await openTestStore(dialect);
    await ensureDefaultProject(store);
  });
  afterEach(async () => {
    await store.close();
  });

  it("are re-derived by the re-classification job from what the migration marks behind", async () => {
    await sendOtlp(store, [toolSpan(1, "book", "seat 10A is taken", [errorType("SeatTakenError")]), toolSpan(2, "book", "seat 7C is taken", [errorType("SeatTakenError")])]);
    const v2 = groupKeyOf(groupParts({ tool: "book", errorType: "SeatTakenError", message: "seat 7C is taken", httpStatus: null }));
    // As a database of version 1 had them: one key per seat shape (`seat <n>A`, `seat <n>C`).
    await store.run("UPDATE failure_facts SET group_key = span_id");
    const file = path.join("db/migrations", dialect === "sqlite" ? "sqlite/0021_code_source_error_facts.sql" : "postgres/0016_code_source_error_facts.sql");
    const update = readFileSync(file, "utf8").split("--> statement-breakpoint").at(-1)!.split("\n").filter((l) => !l.startsWith("--")).join("\n");
    await store.run(update);
    expect(await store.all("SELECT revision, count(*) AS n FROM failure_facts GROUP BY revision")).toEqual([{ revision: -1, n: 2 }]);
    expect(await reclassifyProject(store, "default", { held: async () => true }, { now: () => T0 })).toEqual({ rows: 2, detail: "0 of 2 stored failures changed" });
    expect(await store.all("SELECT group_key AS key, revision, count(*) AS n FROM failure_facts GROUP BY group_key, revision")).toEqual([{ key: v2, revision: 0, n: 2 }]);
  });
});
