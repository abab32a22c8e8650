import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PART_CONTENTS, PART_TITLES, formatGapItem, getGapReport } from '../../src/check/check-gaps.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { compileSpecFile, compileSpecText } from '../../src/program.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';
import { PART_NAMES } from '../../src/spec/spec-types.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const SEED_HEADINGS = [
  'What the service does',
  'Resources and their fields',
  'States and transitions',
  'Endpoints',
  'Authentication',
  'Events',
  'Errors',
  'Limits',
  'Versioning',
];

function modelOf(file: string): ServiceModel {
  const compiled = compileSpecFile(join(root, file));
  expect(compiled.model).toBeDefined();
  return compiled.model!;
}

function modelFromText(text: string): ServiceModel {
  const compiled = compileSpecText(text);
  expect(compiled.model, compiled.diagnostics.map((d) => d.message).join('\n')).toBeDefined();
  return compiled.model!;
}

/** The document split at its `## ` headings: [heading, body] pairs. */
function sections(doc: string): [string, string][] {
  return doc
    .split(/^## /m)
    .slice(1)
    .map((chunk) => {
      const nl = chunk.indexOf('\n');
      return [chunk.slice(0, nl), chunk.slice(nl + 1)];
    });
}

describe('renderMarkdown', () => {
  it('gives the empty spec the seed title and exactly the seed nine headings in order, each part "not shown"', () => {
    const doc = renderMarkdown(modelOf('examples/empty.yaml'));
    expect(doc.startsWith('# Service interface specification\n\n')).toBe(true);
    expect(doc.match(/^# .*/gm)).toEqual(['# Service interface specification']);
    const parts = sections(doc);
    expect(parts.map(([h]) => h)).toEqual(SEED_HEADINGS);
    expect(parts.map(([h]) => h)).toEqual(PART_NAMES.map((p) => PART_TITLES[p]));
    for (const [heading, body] of parts) expect(body, heading).toContain('not shown');
    expect(doc).not.toMatch(/^###/m);
  });

  it('uses the seed sentences for the parts that are not shown', () => {
    const doc = renderMarkdown(modelOf('examples/empty.yaml'));
    for (const part of PART_NAMES) expect(doc).toContain(`${PART_CONTENTS[part]}: not shown.`);
    expect(doc).toContain('Resources, their fields, types, formats and constraints: not shown.');
    expect(doc).toContain('No base address is defined; the placeholder {base_url} stands for it, and nothing is defined beneath it.');
    expect(doc).toContain('No single named service with a defined behaviour is described.');
    expect(doc).toContain('No state table can be given.');
    expect(doc).toContain('each part below records that gap and states no invented values.');
  });

  it('is deterministic', () => {
    for (const file of ['examples/empty.yaml', 'examples/orders.yaml', 'examples/library.yaml']) {
      const first = renderMarkdown(modelOf(file));
      expect(renderMarkdown(modelOf(file))).toBe(first);
      expect(first).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/); // no timestamps
    }
  });

  it('keeps the seed headings in order for a full spec too', () => {
    const doc = renderMarkdown(modelOf('examples/orders.yaml'));
    expect(sections(doc).map(([h]) => h)).toEqual(SEED_HEADINGS);
    expect(doc).toContain('| Field | Type | Required | Constraints | Description |');
    expect(doc).toContain('| State | Terminal | Description |');
    expect(doc).toContain('| Transition | From | To | Requires | Emits | Description |');
    expect(doc).toContain('| Operation | Method | Path | Action | Resource | Auth | Success | Errors | Summary |');
    expect(doc).toContain('| Code | Status | Title | Conditions | Description |');
    expect(doc).toContain('| Limit | Value |');
  });

  it("writes an api_key scheme with no `in` as sent in a header, the format's default (not as not shown)", () => {
    const model = modelFromText(`
servicespec: 1
authentication:
  schemes:
    key: { type: api_key, name: X-Api-Key }
`);
    const auth = sections(renderMarkdown(model)).find(([h]) => h === 'Authentication')![1];
    expect(auth).toContain('header `X-Api-Key`');
    expect(auth).not.toContain('header or query parameter');
  });

  it('lists each gap of a partly shown part in the seed words, and invents no value', () => {
    const model = modelFromText(`
servicespec: 1
authentication:
  schemes:
    bearer: { type: bearer, token: jwt, issuer: "https://id.example.com/" }
`);
    const doc = renderMarkdown(model);
    const auth = sections(doc).find(([h]) => h === 'Authentication')![1];
    const gaps = getGapReport(model).parts.find((p) => p.part === 'authentication')!;
    expect(gaps.status).toBe('partly shown');
    for (const g of gaps.missing) expect(auth).toContain(`- ${formatGapItem(g)}`);
    expect(auth).toContain('token lifetimes (scheme bearer): not shown');
    expect(auth).toContain('lifetime: not shown');
    expect(auth).toContain('audience: not shown');
    expect(auth).toContain('issuer: `https://id.example.com/`');
    expect(auth).toContain('Default requirement: not shown.');
  });

  it('writes nested fields as parent.child rows with their formats', () => {
    const doc = renderMarkdown(
      modelFromText(`
servicespec: 1
resources:
  Shop:
    fields:
      id: { type: uuid, readOnly: true }
  Box:
    fields:
      id: { type: integer, readOnly: true }
      shop: { type: ref, to: Shop }
      size: { type: enum, values: [small, large], default: small }
      labels: { type: array, items: { type: string, maxLength: 10 } }
      lines: { type: array, items: { type: object, fields: { sku: { type: string } } } }
      place: { type: object, fields: { shelf: { type: integer, minimum: 1 } } }
`),
    );
    expect(doc).toContain('| `shop` | ref → Shop | yes | none | not shown |');
    expect(doc).toContain('| `size` | enum: small, large | yes | default `"small"` | not shown |');
    expect(doc).toContain('| `labels` | array of string | yes | each item: length at most 10 | not shown |');
    expect(doc).toContain('| `lines[].sku` | string | yes | none | not shown |');
    expect(doc).toContain('| `place.shelf` | integer | yes | at least 1 | not shown |');
  });

  it('escapes table pipes and Markdown in text taken from the spec', () => {
    const doc = renderMarkdown(
      modelFromText(`
servicespec: 1
errors:
  body: problem
  codes:
    odd: { status: 400, title: "a | b", description: "<script>alert(1)</script> *not bold*", when: [validation] }
`),
    );
    const row = doc.split('\n').find((l) => l.startsWith('| `odd`'))!;
    expect(row).toContain('a \\| b');
    expect(row).toContain('\\<script>alert(1)\\</script> \\*not bold\\*');
    expect(row.split(/(?<!\\)\|/).length).toBe(7); // 5 cells between 6 unescaped pipes
  });

  it('writes {base_url} as given and says it is a placeholder', () => {
    const doc = renderMarkdown(
      modelFromText(`
servicespec: 1
endpoints:
  base_url: "{base_url}"
`),
    );
    expect(doc).toContain('the placeholder {base_url} stands for it');
    const endpoints = sections(doc).find(([h]) => h === 'Endpoints')![1];
    expect(endpoints).toContain('- operations: not shown');
  });
});

describe('declared parameters of a custom operation', () => {
  it('are shown under the operation, as fields: query parameters and headers', () => {
    const md = renderMarkdown(
      modelFromText(`servicespec: 1
endpoints:
  operations:
    search:
      method: GET
      path: /search
      action: custom
      handler: search
      response: { fields: { n: { type: integer } } }
      query:
        labelSelector: { type: string, optional: true, description: Only matching labels. }
        limit: { type: integer, minimum: 1, deprecated: true }
      headers:
        X-Trace-Id: { type: uuid, optional: true }
`),
    );
    const section = md.slice(md.indexOf('#### search'));
    expect(section).toContain('Query parameters:');
    expect(section).toMatch(/\| `labelSelector` \| string \| no \| none \| Only matching labels\. \|/);
    expect(section).toMatch(/\| `limit` \| integer \| yes \| at least 1 \| \(deprecated\) \|/);
    expect(section).toContain('Headers:');
    expect(section).toMatch(/\| `X-Trace-Id` \| uuid \| no \|/);
  });
});

describe('a state machine that does not name its field', () => {
  it('shows the resource\'s one state field as the state field, not "not shown"', () => {
    // Before: "- State field: not shown", though docs/format.md says the one state field holds the state.
    const md = renderMarkdown(
      modelFromText(`servicespec: 1
resources:
  Jar:
    fields:
      id: { type: uuid, readOnly: true }
      phase: { type: state }
states:
  Jar:
    initial: full
    transitions:
      open: { from: full, to: opened }
`),
    );
    expect(md).toContain('- State field: `phase`');
    expect(md).not.toContain('State field: not shown');
  });
});

describe('the Idempotency section', () => {
  const spec = (idempotency: string, extra = '') => `
servicespec: 1
resources:
  Ticket:
    fields:
      id: { type: integer, readOnly: true }
      subject: { type: string }
endpoints:
${idempotency}
  operations:
    createTicket: { method: POST, path: /tickets, action: create, resource: Ticket, auth: none${extra} }
    updateTicket: { method: PATCH, path: "/tickets/{id}", action: update, resource: Ticket, auth: none, idempotent: false }
    getTicket: { method: GET, path: "/tickets/{id}", action: read, resource: Ticket, auth: none }
`;
  const section = (text: string) => {
    const md = renderMarkdown(compileSpecText(text).model!);
    const at = md.indexOf('### Idempotency');
    return at < 0 ? '' : md.slice(at, md.indexOf('## Authentication'));
  };

  it('names the format defaults as such (docs/format.md), and a declared header and operation as declared', () => {
    const d = section(spec('  idempotency: { retention: 1h }'));
    expect(d).toContain('- Key header: `Idempotency-Key` (format default)');
    expect(d).toContain('- Idempotent operations: `createTicket` (format default: every POST, PUT, PATCH and DELETE)');
    const declared = section(spec('  idempotency: { header: X-Once, retention: 1h }', ', idempotent: true'));
    expect(declared).toContain('- Key header: `X-Once`\n');
    expect(declared).toContain('- Idempotent operations: `createTicket`\n');
  });

  it('without endpoints.idempotency says no operation takes a key, naming those declared idempotent', () => {
    const d = section(spec('', ', idempotent: true'));
    expect(d).toContain('- Key header: not shown');
    expect(d).toContain('- Idempotent operations: none (without `endpoints.idempotency` no operation takes a key; declared idempotent: `createTicket`)');
  });
});
