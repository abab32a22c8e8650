import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIFF_RULES, IMPACTS, isDiffRuleCode } from '../../src/diff/diff-catalogue.js';
import { PART_NAMES } from '../../src/spec/spec-types.js';
import { ROOT } from './diff-helpers.js';

/** The rule rows of docs/diff.md: `| \`code\` | impact | example |`, with the part from the heading above. */
function documented(): { code: string; impact: string; example: string; part: string }[] {
  const rows: { code: string; impact: string; example: string; part: string }[] = [];
  let part = '';
  for (const line of readFileSync(join(ROOT, 'docs', 'diff.md'), 'utf8').split('\n')) {
    const h = /^### (\w+)/.exec(line);
    if (h) part = h[1]!;
    const m = /^\|\s*`([a-z0-9-]+)`\s*\|\s*([a-z-]+)\s*\|(.*)\|\s*$/.exec(line);
    if (m) rows.push({ code: m[1]!, impact: m[2]!, example: m[3]!.trim(), part });
  }
  return rows;
}

describe('the diff rule catalogue and docs/diff.md', () => {
  const rows = documented();

  it('documents every rule code once, and no code the catalogue lacks', () => {
    const codes = rows.map((r) => r.code);
    expect(Object.keys(DIFF_RULES).filter((c) => !codes.includes(c))).toEqual([]);
    expect(codes.filter((c) => !isDiffRuleCode(c))).toEqual([]);
    expect(codes.filter((c, i) => codes.indexOf(c) !== i)).toEqual([]);
  });

  it('gives each its catalogue impact and part, and an example', () => {
    for (const r of rows) {
      if (!isDiffRuleCode(r.code)) continue;
      expect(r.impact, r.code).toBe(DIFF_RULES[r.code].impact);
      expect(r.part, r.code).toBe(DIFF_RULES[r.code].part);
      expect(r.example.length, r.code).toBeGreaterThan(10);
    }
  });

  it('codes are kebab-case, impacts and parts are from the closed lists', () => {
    for (const [code, rule] of Object.entries(DIFF_RULES)) {
      expect(code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)+$/);
      expect(IMPACTS).toContain(rule.impact);
      expect(PART_NAMES).toContain(rule.part);
    }
  });

  it('covers all nine parts', () => {
    expect(new Set(Object.values(DIFF_RULES).map((r) => r.part))).toEqual(new Set(PART_NAMES));
  });
});
