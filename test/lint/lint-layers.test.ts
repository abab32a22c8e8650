// `npm run lint` runs dependency-cruiser with .dependency-cruiser.cjs: these tests show that it fails on a layer
// break and on a cycle (injected into a copy of src/), passes on the tree as it is, and that the table in
// docs/architecture.md is the one the configuration enforces.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const BIN = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const copies: string[] = [];
// One cruise of src/ is ~2 s of CPU; on a loaded machine its wall time is many times that.
const CRUISE_TIMEOUT = 120_000;

function cruise(dir: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [BIN, 'src', '--config', CONFIG, '--output-type', 'err'], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** A copy of src/ with `line` appended to each file named. */
function copyWith(injected: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-layers-'));
  copies.push(dir);
  cpSync(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const [file, line] of Object.entries(injected)) appendFileSync(join(dir, 'src', file), `\n${line}\n`);
  return dir;
}

function violations(out: string): string[] {
  return [...out.matchAll(/error ([a-z-]+): (\S+) → (\S+)?/g)].map((m) => `${m[1]} ${m[2]}`);
}

afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe('the layer rules (dependency-cruiser in npm run lint)', () => {
  it(
    'pass on the tree as it is',
    () => {
      const r = cruise(ROOT);
      expect(r.out).toContain('no dependency violations found');
      expect(r.status).toBe(0);
    },
    CRUISE_TIMEOUT,
  );

  it(
    'fail on a cycle inside one layer, where no layer rule is broken',
    () => {
      const r = cruise(copyWith({ 'model/model-lookup.ts': "import { getRoutes } from './model-routes.js';\nexport const _r = getRoutes;" }));
      expect(r.status).not.toBe(0);
      // Every module on the new cycle is reported (model-lookup, and those that reach it through model-routes);
      // no layer rule is among them.
      const found = violations(r.out);
      expect(found).toContain('no-circular src/model/model-lookup.ts');
      expect(found.every((v) => v.startsWith('no-circular src/model/'))).toBe(true);
    },
    CRUISE_TIMEOUT,
  );

  it(
    'fail when spec imports the model (type-only is enough), the kernel its wiring, a leaf a layer above, or a library module the CLI',
    () => {
      const r = cruise(
        copyWith({
          'spec/spec-types.ts': "import type { ServiceModel } from '../model/model-types.js';\nexport type _M = ServiceModel;",
          'runtime/runtime-errors.ts': "import '../runtime/service/runtime-service.js';",
          'diagnostics/diagnostics-format.ts': "import '../check/check-rules.js';",
          'runtime/auth/auth-jwt.ts': "import '../../cli/cli-auth-options.js';",
          'export/export-json-schema.ts': "import '../model/model-builder.js';",
        }),
      );
      expect(r.status).not.toBe(0);
      expect(r.out).toContain('error layer-spec: src/spec/spec-types.ts → src/model/model-types.ts');
      expect(r.out).toMatch(/error no-circular: src\/(spec|model)\/\S+ → /);
      expect(r.out).toContain('error layer-kernel: src/runtime/runtime-errors.ts → src/runtime/service/runtime-service.ts');
      expect(r.out).toContain('error layer-diagnostics: src/diagnostics/diagnostics-format.ts → src/check/check-rules.ts');
      expect(r.out).toContain('error command-line-only-in-cli: src/runtime/auth/auth-jwt.ts → src/cli/cli-auth-options.ts');
      expect(r.out).toContain('error model-built-only-by-the-front-end: src/export/export-json-schema.ts → src/model/model-builder.ts');
    },
    CRUISE_TIMEOUT,
  );

  it('place every module of src/ in exactly one layer', () => {
    const { LAYERS } = createRequire(import.meta.url)(CONFIG) as { LAYERS: Record<string, [string, string[]]> };
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
      );
    const unplaced = files(join(ROOT, 'src'))
      .map((f) => relative(ROOT, f).split('\\').join('/'))
      .filter((f) => Object.values(LAYERS).filter(([path]) => new RegExp(path).test(f)).length !== 1);
    expect(unplaced).toEqual([]);
  });

  it('are the table in docs/architecture.md', () => {
    const { LAYERS } = createRequire(import.meta.url)(CONFIG) as { LAYERS: Record<string, [string, string[]]> };
    const doc = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## Layers'), doc.indexOf('\n## ', doc.indexOf('## Layers') + 1));
    const rows = [...section.matchAll(/^\| `([a-z]+)` \| [^|]+ \| ([^|]+) \|$/gm)].map((m) => [m[1], m[2]!.trim()]);
    const expected = Object.entries(LAYERS).map(([name, [, may]]) => [
      name,
      may.includes('*') ? 'any layer' : may.length === 0 ? 'nothing' : may.map((m) => `\`${m}\``).join(', '),
    ]);
    expect(rows).toEqual(expected);
  });
});
