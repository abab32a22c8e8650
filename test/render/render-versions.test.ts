// `doc` shows what each supported version differs in (Markdown, HTML, the docs console), derived from the declared
// changes: the fields a version calls differently, lacks or still has, and the operations whose bodies differ.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getVersionDifferences, getVersionModel } from '../../src/model/model-versions.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { compareModels } from '../../src/diff/diff-rules.js';
import { compileSpecFile, compileSpecText } from '../../src/program.js';
import { renderConsole } from '../../src/render/render-console.js';
import { renderHtml } from '../../src/render/render-html.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { ROOT } from '../export/helpers.js';

function modelOf(file: string): ServiceModel {
  const compiled = compileSpecFile(join(ROOT, file));
  if (!compiled.model) throw new Error(compiled.diagnostics.map((d) => d.message).join('; '));
  return compiled.model;
}

const NOTES = 'test/fixtures/versions/notes.yaml';

describe('what each supported version differs in', () => {
  it('lists, per version, the fields against the current version and the operations whose bodies differ (an unseen spec)', () => {
    const md = renderMarkdown(modelOf(NOTES));
    const part = md.slice(md.indexOf('### What each supported version differs in'), md.indexOf('### Compatibility rules'));
    expect(part).toContain('#### Version 1.5.0 against the current version 2.0.0');
    expect(part).toContain('#### Version 1.0.0 against the current version 2.0.0');
    // Chained renames end at the current name; a removed field is still there in the older version.
    expect(part).toContain('| Note | `text` | `body` | renamed |');
    expect(part).toContain('| Note | `content` | `body` | renamed |');
    expect(part).toContain('| Note | `color` | none | removed after version 1.0.0 |');
    expect(part).toContain('| Note | none | `tags` | added after version 1.5.0 |');
    // A transition's body differs only where its `requires` does.
    expect(part).toContain('| `archiveNote` (`POST /notes/{id}/archive`) | `why` for `reason` |');
    expect(part).toContain('| `archiveNote` (`POST /notes/{id}/archive`) | same | `content` for `body`, no `tags` |');
  });

  it('names what a create of the older version gets or cannot do (the runtime fixture)', () => {
    const md = renderMarkdown(modelOf('test/runtime/fixtures/versioned.yaml'));
    expect(md).toContain(
      '| `createBook` (`POST /books`) | `name` for `title`, no `language` (its default `"en"` is stored) | `name` for `title`, no `language` |',
    );
    expect(md).toContain('| `replaceBook` (`PUT /books/{id}`) | `name` for `title`, no `language` (left as stored) |');
    expect(md).toContain('| `createShelf` (`POST /shelves`) | refused: `code` came after version 1, is required and has no default | no `code` |');
  });

  it('writes the same in HTML and in the docs console, with each route saying how it differs in older versions', () => {
    const model = modelOf('examples/library.yaml');
    const html = renderHtml(model);
    expect(html).toContain('What each supported version differs in');
    expect(html).toMatch(/<td><code>name<\/code><\/td><td><code>full_name<\/code><\/td><td>renamed<\/td>/);
    const page = renderConsole(model);
    expect(page).toContain('What each supported version differs in');
    const createMember = page.slice(page.indexOf('id="op-createMember"'));
    expect(createMember.slice(0, createMember.indexOf('</dl>'))).toContain(
      '<dt>In older versions</dt><dd><code>1</code>: request <code>name</code> for <code>full_name</code>; answer <code>name</code> for <code>full_name</code></dd>',
    );
    const getBook = page.slice(page.indexOf('id="op-getBook"'));
    expect(getBook.slice(0, getBook.indexOf('</dl>'))).toContain('<code>1</code>: answer no <code>language</code>');
    // A spec with one version says nothing of the kind.
    expect(renderMarkdown(modelOf('examples/empty.yaml'))).not.toContain('differs in');
  });

  it('agrees with the version model the exports and the runtime use, for every served version of every versioned spec', () => {
    for (const file of ['examples/library.yaml', 'examples/orders.yaml', NOTES, 'test/runtime/fixtures/versioned.yaml']) {
      const model = modelOf(file);
      for (const s of model.versioning!.supported) {
        const d = getVersionDifferences(model, s.version)!;
        const vm = getVersionModel(model, s.version)!;
        for (const r of model.resources) {
          const now = new Set(r.fields.map((f) => f.name));
          const then = new Set(vm.resources.find((x) => x.name === r.name)!.fields.map((f) => f.name));
          const mine = d.fields.filter((f) => f.resource === r.name);
          expect(new Set([...then].filter((n) => !now.has(n))), `${file} ${s.version} ${r.name}`).toEqual(
            new Set(mine.flatMap((f) => (f.old !== undefined ? [f.old] : []))),
          );
          expect(new Set([...now].filter((n) => !then.has(n))), `${file} ${s.version} ${r.name}`).toEqual(
            new Set(mine.flatMap((f) => (f.now !== undefined ? [f.now] : []))),
          );
        }
      }
    }
  });
});

describe('a version in the media type, and default: oldest', () => {
  it('doc, the docs console and diff name the template, not a media type parameter', () => {
    const text = readFileSync(join(ROOT, NOTES), 'utf8');
    const old = compileSpecText(text.replace('default: current', 'default: oldest'), 'notes.yaml').model!;
    const media = compileSpecText(
      text
        .replace('placement: { query: api_version }', 'placement: { media_type: "application/vnd.notes.v{version}+json" }')
        .replace('default: current', 'default: oldest'),
      'notes.yaml',
    ).model!;
    const md = renderMarkdown(media);
    expect(md).toContain('media type `application/vnd.notes.v{version}+json` (Accept, and Content-Type for a body)');
    expect(md).not.toContain('media type parameter');
    expect(md).toContain('the oldest supported version not past its sunset');
    expect(renderConsole(media)).toContain('media type <code>application/vnd.notes.v{version}+json</code>');
    const changes = compareModels(old, media).filter((c) => c.code === 'version-placement-changed');
    expect(changes).toHaveLength(1);
    expect(changes[0]!.reason).toContain('the media type (application/vnd.notes.v{version}+json)');
  });
});
