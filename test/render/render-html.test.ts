import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PART_NAMES } from '../../src/spec/spec-types.js';
import { PART_TITLES } from '../../src/check/check-gaps.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { compileSpecFile, compileSpecText } from '../../src/program.js';
import { renderHtml } from '../../src/render/render-html.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function modelOf(file: string): ServiceModel {
  const compiled = compileSpecFile(join(root, file));
  expect(compiled.model).toBeDefined();
  return compiled.model!;
}

const VOID = new Set(['meta', 'br', 'hr', 'img', 'link', 'input']);

/** Every element closed in order (self-closing SVG elements allowed): a cheap well-formedness check. */
function unbalancedTags(html: string): string[] {
  const stack: string[] = [];
  const problems: string[] = [];
  const body = html.replace(/<style>[\s\S]*?<\/style>/g, '').replace(/<!doctype html>/i, '');
  for (const m of body.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*?(\/?)>/g)) {
    const [, closing, name, selfClosing] = m;
    const tag = name!.toLowerCase();
    if (selfClosing || VOID.has(tag)) continue;
    if (!closing) stack.push(tag);
    else if (stack.pop() !== tag) problems.push(`</${tag}> at ${m.index}`);
  }
  return [...problems, ...stack.map((t) => `<${t}> never closed`)];
}

describe('renderHtml', () => {
  it('is a standalone page with the seed title and nine headings in order', () => {
    const html = renderHtml(modelOf('examples/empty.yaml'));
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<h1 id="service-interface-specification">Service interface specification</h1>');
    const h2 = Array.from(html.matchAll(/<h2 id="[^"]*">([^<]*)<\/h2>/g), (m) => m[1]);
    expect(h2).toEqual(PART_NAMES.map((p) => PART_TITLES[p]));
    expect(html).toContain('<p>Resources, their fields, types, formats and constraints: not shown.</p>');
    expect(html).not.toMatch(/<script|<link|src=/i);
    expect(unbalancedTags(html)).toEqual([]);
  });

  it('escapes everything taken from the spec', () => {
    const compiled = compileSpecText(`
servicespec: 1
purpose:
  name: "Evil <b>Co</b> & \\"friends\\""
  description: "<script>alert('x')</script>"
resources:
  Thing:
    description: "<img src=x onerror=alert(1)>"
    fields:
      id: { type: string, pattern: "^<a>|'\\"$", example: "</td></tr>" }
`);
    const html = renderHtml(compiled.model!);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<title>Service interface specification: Evil &lt;b&gt;Co&lt;/b&gt; &amp; &quot;friends&quot;</title>');
    expect(html).toContain('<code>&quot;&lt;/td&gt;&lt;/tr&gt;&quot;</code>');
    expect(unbalancedTags(html)).toEqual([]);
  });

  it('draws each state machine as an inline SVG diagram', () => {
    const html = renderHtml(modelOf('examples/orders.yaml'));
    const svgs = Array.from(html.matchAll(/<svg[\s\S]*?<\/svg>/g), (m) => m[0]);
    expect(svgs).toHaveLength(1);
    const svg = svgs[0]!;
    for (const state of ['pending', 'paid', 'shipped', 'cancelled']) expect(svg).toContain(`>${state}</text>`);
    for (const t of ['pay', 'ship', 'cancel']) expect(svg).toContain(`class="label">${t}</text>`);
    expect(svg).toContain('<title>State diagram of Order</title>');
    expect(svg).not.toMatch(/NaN|Infinity/);
    expect(unbalancedTags(html)).toEqual([]);
  });

  it('copes with cycles, self-loops and machines without an initial state', () => {
    const html = renderHtml(modelOf('test/fixtures/states-only/service.yaml'));
    const svgs = Array.from(html.matchAll(/<svg[\s\S]*?<\/svg>/g), (m) => m[0]);
    expect(svgs).toHaveLength(2);
    expect(new Set(svgs.map((s) => /marker id="([^"]+)"/.exec(s)![1])).size).toBe(2); // marker ids unique on the page
    for (const svg of svgs) expect(svg).not.toMatch(/NaN|Infinity|undefined/);
    expect(svgs[0]).toContain('class="label">close, slam</text>');
    expect(unbalancedTags(html)).toEqual([]);
  });

  it('is deterministic and has the same content as the Markdown for every example', () => {
    for (const file of ['examples/empty.yaml', 'examples/orders.yaml', 'examples/library.yaml']) {
      const html = renderHtml(modelOf(file));
      expect(renderHtml(modelOf(file))).toBe(html);
      expect(unbalancedTags(html)).toEqual([]);
      expect(html).not.toContain('undefined');
    }
  });
});
