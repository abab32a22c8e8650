// Version chains: whatever renames, additions and removals the supported versions declare, each version's model
// has exactly the fields that version had, `check` accepts the chain, and the differences `doc` shows agree.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getFieldHistory, getVersionDifferences, getVersionModel } from '../../src/model/model-versions.js';
import { compileSpecText } from '../../src/program.js';

type Change =
  | { rename_field: { resource: 'Note'; from: string; to: string } }
  | { add_field: { resource: 'Note'; field: string } }
  | { remove_field: { resource: 'Note'; field: string } };

/** One step from an older version to the next newer one, drawn as choices applied to the newer field set. */
const stepArb = fc.array(fc.record({ kind: fc.constantFrom('rename', 'add', 'remove'), pick: fc.nat() }), { maxLength: 4 });

interface Chain {
  /** Field sets, newest (current) first. */
  fields: string[][];
  /** The changes each older version declares (leading from it to the next newer one), newest first. */
  changes: Change[][];
}

function buildChain(steps: { kind: string; pick: number }[][]): Chain {
  let fresh = 0;
  const current = ['f0', 'f1', 'f2'];
  fresh = 3;
  const fields: string[][] = [current];
  const changes: Change[][] = [];
  for (const step of steps) {
    const newer = fields[fields.length - 1]!;
    const older = [...newer];
    const declared: Change[] = [];
    const touched = new Set<string>();
    for (const { kind, pick } of step) {
      const candidates = older.filter((f) => !touched.has(f) && newer.includes(f));
      if (kind === 'remove') {
        const name = `f${fresh++}`;
        older.push(name);
        touched.add(name);
        declared.push({ remove_field: { resource: 'Note', field: name } });
        continue;
      }
      if (candidates.length === 0) continue;
      const f = candidates[pick % candidates.length]!;
      touched.add(f);
      if (kind === 'add') {
        older.splice(older.indexOf(f), 1);
        declared.push({ add_field: { resource: 'Note', field: f } });
      } else {
        const name = `f${fresh++}`;
        older.splice(older.indexOf(f), 1, name);
        touched.add(name);
        declared.push({ rename_field: { resource: 'Note', from: name, to: f } });
      }
    }
    fields.push(older);
    changes.push(declared);
  }
  return { fields, changes };
}

function specOf(chain: Chain): string {
  const fieldLines = (chain.fields[0] ?? []).map((f) => `      ${f}: { type: string, optional: true }`).join('\n');
  const supported = chain.changes.map((c, i) => `    - version: ${chain.changes.length - i}\n      changes: ${JSON.stringify(c)}`).join('\n');
  return `servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
${fieldLines}
versioning:
  scheme: integer
  current: ${chain.changes.length + 1}
  placement: { header: V }
  supported:
${supported}
`;
}

describe('version chains (property)', () => {
  it('each version has exactly its fields; check accepts the chain; the differences agree', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 4 }), (steps) => {
        const chain = buildChain(steps);
        const compiled = compileSpecText(specOf(chain));
        expect(compiled.diagnostics.filter((d) => d.severity !== 'info').map((d) => `${d.code} ${d.message}`)).toEqual([]);
        const model = compiled.model!;
        const current = chain.changes.length + 1;
        chain.fields.forEach((expected, i) => {
          const version = String(current - i);
          const vm = getVersionModel(model, version)!;
          const names = vm.resources[0]!.fields.map((f) => f.name).filter((n) => n !== 'id');
          expect(new Set(names), `version ${version}`).toEqual(new Set(expected));
          if (i === 0) return;
          // Each field of that version is either unchanged or named by its history; each current one likewise.
          const history = getFieldHistory(model, version, 'Note');
          for (const n of expected) expect(chain.fields[0]!.includes(n) || history.some((e) => e.old === n)).toBe(true);
          const d = getVersionDifferences(model, version)!;
          expect(new Set(d.fields.flatMap((f) => (f.old !== undefined ? [f.old] : [])))).toEqual(
            new Set(expected.filter((n) => !chain.fields[0]!.includes(n))),
          );
          expect(new Set(d.fields.flatMap((f) => (f.now !== undefined ? [f.now] : [])))).toEqual(
            new Set(chain.fields[0]!.filter((n) => !expected.includes(n))),
          );
        });
      }),
      { numRuns: 150 },
    );
  });
});
