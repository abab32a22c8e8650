import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostics-catalogue.js';
import { compileSpecBytes, compileSpecFile, compileSpecText } from '../../src/program.js';
import { loadSpecBytes, loadSpecFile, loadSpecText, locate, MAX_SPEC_BYTES, MAX_SPEC_DEPTH } from '../../src/spec/spec-loader.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'servicespec-loader-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The one diagnostic a bad input must produce, as `code line:column`. */
function only(diagnostics: readonly Diagnostic[]): string {
  expect(diagnostics).toHaveLength(1);
  const d = diagnostics[0]!;
  expect(d.severity).toBe('error');
  return `${d.code} ${d.line ?? '-'}:${d.column ?? '-'}`;
}

/** Loads text through the whole front end; asserts it neither throws nor yields a model. */
function bad(text: string): string {
  let result: ReturnType<typeof compileSpecText> | undefined;
  expect(() => {
    result = compileSpecText(text, 'bad.yaml');
  }).not.toThrow();
  expect(result!.model).toBeUndefined();
  expect(result!.diagnostics.every((d) => d.file === 'bad.yaml')).toBe(true);
  return only(result!.diagnostics);
}

describe('loader: text that is not one YAML mapping', () => {
  it('an empty file', () => {
    expect(bad('')).toBe('empty-document 1:1');
  });

  it('a whitespace-only file', () => {
    expect(bad('  \n\n\t \n')).toBe('empty-document 1:1');
  });

  it('a file with only comments', () => {
    expect(bad('# nothing here\n# at all\n')).toBe('empty-document 1:1');
  });

  it('text that is not YAML', () => {
    expect(bad('a: [')).toBe('yaml-syntax 1:5');
    const d = compileSpecText('a: [').diagnostics[0]!;
    expect(d.message).toMatch(/^YAML syntax error \([A-Z_]+\): /);
  });

  it('a tab used as indentation', () => {
    expect(bad('servicespec: 1\n\tresources: {}\n')).toBe('yaml-syntax 2:1');
  });

  it('an unterminated quoted string', () => {
    expect(bad('servicespec: 1\npurpose:\n  name: "Orders\n')).toMatch(/^yaml-syntax \d+:\d+$/);
  });

  it('a list at the top level', () => {
    expect(bad('- servicespec: 1\n- resources: {}\n')).toBe('not-a-mapping 1:1');
    expect(compileSpecText('- a').diagnostics[0]!.message).toContain('not a list');
  });

  it('a scalar at the top level', () => {
    expect(bad('hello')).toBe('not-a-mapping 1:1');
    expect(bad('\n\n  42\n')).toBe('not-a-mapping 3:3');
    expect(compileSpecText('hello').diagnostics[0]!.message).toContain('"hello"');
  });

  it('null at the top level', () => {
    expect(bad('null')).toBe('not-a-mapping 1:1');
    expect(bad('~')).toBe('not-a-mapping 1:1');
    expect(compileSpecText('null').diagnostics[0]!.message).toContain('(null)');
  });

  it('a duplicate key at the top level and inside a part', () => {
    expect(bad('servicespec: 1\nservicespec: 1\n')).toBe('duplicate-key 2:1');
    expect(compileSpecText('servicespec: 1\nservicespec: 1\n').diagnostics[0]!.message).toBe('duplicate key `servicespec`');
    expect(bad('servicespec: 1\nresources:\n  Order: {}\n  Order: {}\n')).toBe('duplicate-key 4:3');
  });

  it('a duplicate key in a flow mapping', () => {
    expect(bad('servicespec: 1\nlimits: { timeout: 5s, timeout: 6s }\n')).toBe('duplicate-key 2:24');
  });

  it('two documents in one file', () => {
    expect(bad('servicespec: 1\n---\nservicespec: 1\n')).toBe('multiple-documents 2:1');
    expect(bad('servicespec: 1\n...\n---\nresources: {}\n')).toMatch(/^multiple-documents [34]:1$/);
  });
});

describe('loader: limits', () => {
  it('a 20 MB file is refused before it is read', () => {
    const path = join(dir, 'huge.yaml');
    const line = `# ${'x'.repeat(98)}\n`;
    writeFileSync(path, `servicespec: 1\n${line.repeat(200_000)}`);
    const r = compileSpecFile(path);
    expect(r.model).toBeUndefined();
    expect(r.diagnostics.map((d) => d.code)).toEqual(['file-too-large']);
    expect(r.diagnostics[0]!.file).toBe(path);
    expect(r.diagnostics[0]!.message).toBe(`the spec is 20200015 bytes; the limit is ${MAX_SPEC_BYTES} bytes`);
  });

  it('oversized bytes and text are refused too', () => {
    const big = `servicespec: 1\n#${'x'.repeat(MAX_SPEC_BYTES)}\n`;
    expect(compileSpecBytes(Buffer.from(big)).diagnostics.map((d) => d.code)).toEqual(['file-too-large']);
    expect(compileSpecText(big).diagnostics.map((d) => d.code)).toEqual(['file-too-large']);
  });

  it(`flow nesting 5,000 deep stops at level ${MAX_SPEC_DEPTH}`, () => {
    const text = `servicespec: 1\nx: ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    // The first too-deep token: 4 columns of `x: ` then MAX_SPEC_DEPTH brackets.
    expect(bad(text)).toBe(`nesting-too-deep 2:${4 + MAX_SPEC_DEPTH}`);
    expect(compileSpecText(text).diagnostics[0]!.message).toBe(`the document nests deeper than ${MAX_SPEC_DEPTH} levels`);
  });

  it('flow mappings 5,000 deep', () => {
    expect(bad(`servicespec: 1\nx: ${'{a: '.repeat(5000)}1${'}'.repeat(5000)}\n`)).toBe('nesting-too-deep 2:260');
  });

  it('block nesting 5,000 deep (compact lists)', () => {
    expect(bad(`servicespec: 1\nx:\n  ${'- '.repeat(5000)}v\n`)).toBe('nesting-too-deep 3:131');
  });

  it('block mappings indented one more space per level', () => {
    let text = 'servicespec: 1\nx:\n';
    for (let i = 1; i <= 200; i++) text += `${' '.repeat(i)}k:\n`;
    expect(bad(text)).toMatch(/^nesting-too-deep \d+:\d+$/);
  });

  it('nesting 100,000 deep, flow and block, neither throws nor overflows the stack', () => {
    expect(bad(`servicespec: 1\nx: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`)).toBe(`nesting-too-deep 2:${4 + MAX_SPEC_DEPTH}`);
    expect(bad(`servicespec: 1\nx:\n  ${'- '.repeat(100_000)}v\n`)).toBe('nesting-too-deep 3:131');
    expect(bad(`servicespec: 1\nx: ${'['.repeat(100_000)}\n`)).toMatch(/^(nesting-too-deep|yaml-syntax) \d+:\d+$/);
  });

  it(`nesting of exactly ${MAX_SPEC_DEPTH} levels is accepted by the loader`, () => {
    // The root mapping is level 0; `x:` holds MAX_SPEC_DEPTH - 1 nested lists.
    const loaded = loadSpecText(`servicespec: 1\nx: ${'['.repeat(MAX_SPEC_DEPTH - 1)}${']'.repeat(MAX_SPEC_DEPTH - 1)}\n`);
    expect(loaded.diagnostics).toEqual([]);
  });

  it('an alias bomb ("billion laughs") is refused, not expanded', () => {
    let text = 'servicespec: 1\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 9; i++) text += `a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(', ')}]\n`;
    expect(bad(text)).toMatch(/^yaml-syntax/);
  });
});

describe('loader: bytes and files', () => {
  it('invalid UTF-8 is reported with the position of the first bad byte', () => {
    expect(only(compileSpecBytes(Buffer.from([0x73, 0x65, 0xff])).diagnostics)).toBe('invalid-utf8 1:3');
    expect(only(compileSpecBytes(Buffer.from([...Buffer.from('servicespec: 1\nname: a'), 0xc3, 0x28, 0x0a])).diagnostics)).toBe('invalid-utf8 2:8');
  });

  it('invalid UTF-8 in a file carries the file name', () => {
    const path = join(dir, 'latin1.yaml');
    writeFileSync(path, Buffer.from('servicespec: 1\npurpose: { name: Caf\xe9 }\n', 'latin1'));
    const r = compileSpecFile(path);
    expect(only(r.diagnostics)).toBe('invalid-utf8 2:21');
    expect(r.diagnostics[0]!.file).toBe(path);
  });

  it('a missing file', () => {
    const path = join(dir, 'nope.yaml');
    const r = compileSpecFile(path);
    expect(r.diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([['file-not-found', path, `no such file: ${path}`]]);
    expect(compileSpecFile(join(dir, 'nope.yaml', 'below.yaml')).diagnostics.map((d) => d.code)).toEqual(['file-not-found']);
  });

  it('a directory', () => {
    const sub = join(dir, 'a-directory.yaml');
    mkdirSync(sub);
    expect(compileSpecFile(sub).diagnostics.map((d) => d.code)).toEqual(['file-is-directory']);
  });

  it('a file that cannot be read (a symbolic link loop)', () => {
    const link = join(dir, 'loop.yaml');
    symlinkSync(link, link);
    const r = compileSpecFile(link);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['file-unreadable']);
    expect(r.diagnostics[0]!.message).toContain('ELOOP');
  });

  it('a file name too long for the file system', () => {
    expect(compileSpecFile(join(dir, `${'n'.repeat(300)}.yaml`)).diagnostics.map((d) => d.code)).toEqual(['file-unreadable']);
  });

  it('a BOM-prefixed file loads fine and positions are unchanged', () => {
    const path = join(dir, 'bom.yaml');
    writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('servicespec: 1\nresorces: {}\n')]));
    const r = compileSpecFile(path);
    expect(r.diagnostics.map((d) => `${d.code} ${d.line}:${d.column}`)).toEqual(['unknown-key 2:1']);
    expect(compileSpecText('\uFEFFservicespec: 1\n').diagnostics).toEqual([]);
    expect(compileSpecText('\uFEFFservicespec: 1\n').model).toBeDefined();
  });

  it('Windows line endings load and keep line numbers', () => {
    const r = compileSpecText('servicespec: 1\r\npurpose:\r\n  nam: x\r\n');
    expect(r.diagnostics.map((d) => `${d.code} ${d.line}:${d.column}`)).toEqual(['unknown-key 3:3']);
  });
});

describe('loader: what loads', () => {
  it('YAML aliases and merge-free anchors resolve to plain data', () => {
    const text = 'servicespec: 1\nresources:\n  Order:\n    fields:\n      name: &text { type: string, maxLength: 10 }\n      note: *text\n';
    const r = compileSpecText(text);
    expect(r.diagnostics).toEqual([]);
    const fields = r.model!.resources[0]!.fields;
    expect(fields.map((f) => [f.name, f.type, f.maxLength])).toEqual([
      ['name', 'string', 10],
      ['note', 'string', 10],
    ]);
    // Positions below an alias fall back to the alias.
    expect(locate(r.sourceMap, '/resources/Order/fields/note/type')).toEqual({ line: 6, column: 13 });
  });

  it('JSON input loads (JSON is YAML)', () => {
    const json = JSON.stringify({ servicespec: 1, resources: { Order: { fields: { id: { type: 'uuid' } } } } }, null, 2);
    const r = compileSpecText(json, 'spec.json');
    expect(r.diagnostics).toEqual([]);
    expect(r.model!.resources[0]!.identifier).toBe('id');
    expect(compileSpecText('{"servicespec": 1, "resorces": {}}').diagnostics.map((d) => `${d.code} ${d.line}:${d.column}`)).toEqual(['unknown-key 1:20']);
  });

  it('the source map records key and value positions by JSON pointer', () => {
    const loaded = loadSpecText('servicespec: 1\npurpose:\n  name: Orders\n  "a/b~c": 1\n');
    expect(loaded.sourceMap.get('')).toEqual({ value: { line: 1, column: 1 } });
    expect(loaded.sourceMap.get('/purpose/name')).toEqual({ key: { line: 3, column: 3 }, value: { line: 3, column: 9 } });
    expect(loaded.sourceMap.get('/purpose/a~1b~0c')).toEqual({ key: { line: 4, column: 3 }, value: { line: 4, column: 12 } });
    // A block mapping is located at its key; a missing pointer at its nearest ancestor.
    expect(locate(loaded.sourceMap, '/purpose')).toEqual({ line: 2, column: 1 });
    expect(locate(loaded.sourceMap, '/purpose/name/deeper')).toEqual({ line: 3, column: 9 });
    expect(locate(loaded.sourceMap, '/purpose/name', 'key')).toEqual({ line: 3, column: 3 });
  });

  it('a key with an empty value is recorded just after its key', () => {
    const loaded = loadSpecText('servicespec: 1\npurpose:\n');
    expect(loaded.document).toEqual({ servicespec: 1, purpose: null });
    expect(loaded.sourceMap.get('/purpose')).toEqual({ key: { line: 2, column: 1 }, value: { line: 2, column: 9 } });
  });

  it('loadSpecFile, loadSpecBytes and loadSpecText agree', () => {
    const text = 'servicespec: 1\npurpose: { name: Orders }\n';
    const path = join(dir, 'same.yaml');
    writeFileSync(path, text);
    const a = loadSpecFile(path);
    const b = loadSpecBytes(Buffer.from(text), path);
    const c = loadSpecText(text, path);
    expect(a.document).toEqual(c.document);
    expect(b.document).toEqual(c.document);
    expect([...a.sourceMap]).toEqual([...c.sourceMap]);
  });
});

describe('positions without a second parser (issue 19 item 4)', () => {
  it('a clean spec, and a warning on a one-line node, are read and placed without loading `yaml`; a syntax error loads it', () => {
    const loader = pathToFileURL(join(process.cwd(), 'src', 'spec', 'spec-loader.ts')).href;
    const script = `
      import { createRequire } from 'node:module';
      const { loadSpecText, locate } = await import(${JSON.stringify(loader)});
      const yamlLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/node_modules/yaml/'));
      const text = 'servicespec: 1\\nstates:\\n  Order:\\n    states:\\n      open: { description: "Open.", terminal: false }\\n      orphan: { description: Never reached., terminal: true }\\n    transitions:\\n      close: { from: [open, orphan], to: open }\\n';
      const loaded = loadSpecText(text, 'x.yaml');
      const out = [yamlLoaded()];
      out.push(locate(loaded.sourceMap, '/states/Order/states/orphan'), locate(loaded.sourceMap, '/states/Order/transitions/close/from/1'), locate(loaded.sourceMap, '/states/Order/states', 'key'), yamlLoaded());
      loadSpecText('a: [1\\n', 'y.yaml');
      out.push(yamlLoaded());
      console.log(JSON.stringify(out));
    `;
    // The fast path under test: on whatever SERVICESPEC_FAST_PATHS the suite runs with; off, `yaml` reads everything.
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, SERVICESPEC_FAST_PATHS: 'on' },
    });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([false, { line: 6, column: 15 }, { line: 8, column: 29 }, { line: 4, column: 5 }, false, true]);
    const off = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, SERVICESPEC_FAST_PATHS: 'off' },
    });
    expect(off.stderr).toBe('');
    expect(JSON.parse(off.stdout)).toEqual([true, { line: 6, column: 15 }, { line: 8, column: 29 }, { line: 4, column: 5 }, true, true]);
  });
});
