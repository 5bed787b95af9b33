// Writes the JSON Schema of the native wire records (lib/contracts) for the Python package, which
// validates what it builds against it (sdk/python/tests). test/unit/record-schema.test.ts fails when
// the file is stale: run `npx tsx scripts/gen-record-schema.ts` after changing a record schema.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { recordJsonSchemaText } from "../lib/contracts/json-schema";

const file = path.join(import.meta.dirname, "../sdk/python/src/faultline/schema/records.json");
writeFileSync(file, recordJsonSchemaText());
console.log(`wrote ${path.relative(process.cwd(), file)}`);
