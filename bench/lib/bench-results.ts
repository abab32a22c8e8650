// One writer for bench/RESULTS.md: each benchmark owns a section between `<!-- name:start -->` and
// `<!-- name:end -->` and replaces only that.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RESULTS = fileURLToPath(new URL('../RESULTS.md', import.meta.url));

const HEADER = [
  '# Benchmark results',
  '',
  'Each benchmark under bench/ writes its own section here, between `<!-- name:start -->` and `<!-- name:end -->`',
  'markers, replacing its previous result. Every section records the command, date, machine, the figures, the',
  'baseline measured in the same run and the ratio to it, and whether the target was met. Figures from a loaded',
  'machine (see the load average) are upper bounds.',
  '',
].join('\n');

/** Replaces the named section (markdown without its markers), or appends it; creates the file if missing. */
export function writeResultsSection(name: string, markdown: string): void {
  const section = `<!-- ${name}:start -->\n${markdown.trim()}\n<!-- ${name}:end -->`;
  const current = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : `${HEADER}\n`;
  const re = new RegExp(`<!-- ${name}:start -->[\\s\\S]*?<!-- ${name}:end -->`);
  const next = re.test(current) ? current.replace(re, () => section) : `${current.replace(/\n*$/, '\n\n')}${section}\n`;
  writeFileSync(RESULTS, next);
}
