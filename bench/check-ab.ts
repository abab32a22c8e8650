// Same answers from two builds: compiles every spec under test/ and examples/, the generated large specs (clean and
// with one warning) and random specs (test/check/spec-arbitrary.ts, seeded, as YAML and as JSON) with this
// checkout's dist/ and with another's, and compares the diagnostics (code, message, position, order) and the model
// (as JSON). Exits 1 on the first few differences. Both checkouts need `npm run build` first.
//
//   AB_OLD=/path/to/other/checkout npx tsx bench/check-ab.ts            # 1,000 random specs
//   AB_OLD=... CHECK_AB_RANDOM=5000 npx tsx bench/check-ab.ts
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { specDocument } from '../test/check/spec-arbitrary.js';
import { generateLargeSpec } from './lib/foundation-spec.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OLD = process.env.AB_OLD;
if (OLD === undefined) throw new Error('AB_OLD=<checkout with dist/> is required');
const RANDOM = Number(process.env.CHECK_AB_RANDOM ?? 1000);

interface Compiled {
  diagnostics: readonly unknown[];
  model?: unknown;
}
type Compile = (text: string, file: string) => Compiled;

async function compiler(root: string): Promise<Compile> {
  const mod = (await import(join(root, 'dist', 'program.js'))) as { compileSpecText: Compile };
  return mod.compileSpecText;
}

function specFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(path).isDirectory()) out.push(...specFiles(path));
    else if (/\.(ya?ml|json)$/.test(name)) out.push(path);
  }
  return out;
}

function withOneWarning(text: string): string {
  const line = '      cancelled: { description: Stopped., terminal: true }\n';
  return text.replace(line, `${line}      orphan: { description: Never reached., terminal: true }\n`);
}

async function main(): Promise<void> {
  const [ours, theirs] = await Promise.all([compiler(ROOT), compiler(OLD!)]);
  const inputs: { name: string; text: string }[] = [];
  for (const dir of ['examples', 'test'])
    for (const path of specFiles(join(ROOT, dir))) inputs.push({ name: relative(ROOT, path), text: readFileSync(path, 'utf8') });
  for (const resources of [3, 400, 1000]) {
    const clean = generateLargeSpec({ resources, operationsPerResource: 5 });
    inputs.push({ name: `generated ${resources * 5} clean`, text: clean }, { name: `generated ${resources * 5} one warning`, text: withOneWarning(clean) });
  }
  fc.sample(specDocument, { numRuns: RANDOM, seed: 19 }).forEach((doc, i) => {
    inputs.push({ name: `random ${i}.yaml`, text: stringify(doc) }, { name: `random ${i}.json`, text: JSON.stringify(doc, null, 1) });
  });
  let differ = 0;
  let diagnostics = 0;
  for (const { name, text } of inputs) {
    const a = ours(text, name);
    const b = theirs(text, name);
    diagnostics += b.diagnostics.length;
    const da = JSON.stringify(a.diagnostics);
    const db = JSON.stringify(b.diagnostics);
    const ma = JSON.stringify(a.model);
    const mb = JSON.stringify(b.model);
    if (da === db && ma === mb) continue;
    differ++;
    if (differ <= 5) console.log(`DIFFERENT ${name}\n  ${da === db ? 'model' : `ours:   ${da.slice(0, 2000)}\n  theirs: ${db.slice(0, 2000)}`}`);
  }
  console.log(`${inputs.length} specs (${diagnostics} diagnostics): ${differ === 0 ? 'same diagnostics and models' : `${differ} differ`}`);
  if (differ > 0) process.exitCode = 1;
}

await main();
