// Writes test/vectors/*.json from test/vectors/cases.ts with the TypeScript runtime's answers.
// Run after changing a case: `npx tsx test/vectors/generate.ts`.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { vectorFiles } from "./files";

const dir = path.dirname(new URL(import.meta.url).pathname);
for (const [name, content] of Object.entries(await vectorFiles())) {
  writeFileSync(path.join(dir, name), `${JSON.stringify(content, null, 2)}\n`);
  console.log(`wrote test/vectors/${name}`);
}
