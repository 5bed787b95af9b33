import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { pgArrayLiteral, withArrayLiterals } from "@/db/store/pg-array-literal";

// node-postgres' own encoder, which the literal must equal wherever it takes over.
const { prepareValue } = createRequire(import.meta.url)("pg/lib/utils") as { prepareValue: (v: unknown) => unknown };

describe("pgArrayLiteral", () => {
  const cases: unknown[][] = [
    [],
    ["plain", "with space", "", "a,b", "{braces}", "NULL", "ünïcode ✓", "tab\there"],
    ['say "hi"', "back\\slash", '\\"both\\"', "trailing\\"],
    [0, -1, 1.5, 1e21, Number.MAX_SAFE_INTEGER, 12345678901234],
    [null, undefined, "x", null],
    [true, false, 10n],
    [["a", null], ["b\\", '"c"']],
  ];
  for (const values of cases) {
    it(`writes ${JSON.stringify(values, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v === undefined ? "undefined" : v))} as node-postgres does`, () => {
      expect(pgArrayLiteral(values)).toBe(prepareValue(values));
    });
  }

  it("leaves arrays holding other types (a Date, a Buffer, an object) to node-postgres", () => {
    expect(pgArrayLiteral(["a", new Date(0)])).toBeNull();
    expect(pgArrayLiteral([Buffer.from("x")])).toBeNull();
    expect(pgArrayLiteral([[{ a: 1 }]])).toBeNull();
    const date = [new Date(0)];
    expect(withArrayLiterals(["text", 3, null, ["a", 1], date])).toEqual(["text", 3, null, '{"a","1"}', date]);
  });
});
