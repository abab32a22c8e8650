// The console page as text: self-contained, spec text escaped (also inside the page's data), every route with
// its examples, and examples labelled by where their values come from.

import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { getRoutes } from '../../src/model/model-routes.js';
import { compileSpecText } from '../../src/program.js';
import { renderConsole } from '../../src/render/render-console.js';
import { loadModel } from '../auth/helpers.js';
import { runCli } from '../cli/cli-helpers.js';
import { yaml } from '../check/helpers.js';
import { EXAMPLE } from './console-helpers.js';

const spec = (withExamples: boolean) => yaml`
  servicespec: 1
  purpose:
    name: Notes
    summary: "</script><script>alert(1)</script>"
    contact: { email: notes@example.com }
  resources:
    Note:
      description: "<img src=x onerror=alert(1)>"
      fields:
        id: { type: uuid, readOnly: true${withExamples ? ', example: 01890a5d-ac96-774b-bcce-b302099a8057' : ''} }
        text: { type: string${withExamples ? ', example: Buy milk' : ''} }
  endpoints:
    operations:
      createNote: { method: POST, path: /notes, action: create, resource: Note, status: 201, auth: none }
  errors:
    codes:
      any_error: { status: 500, title: "Failure </script>", when: [validation, malformed_request, unsupported_media_type, body_too_large, internal, headers_too_large, route_not_found, method_not_allowed] }
`;

function model(withExamples: boolean) {
  const c = compileSpecText(spec(withExamples));
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
}

describe('renderConsole', () => {
  it('escapes spec text everywhere, inside the page data too: only its own two scripts run', () => {
    const html = renderConsole(model(false));
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<a href="mailto:notes@example.com">notes@example.com</a>');
  });

  it('loads nothing from elsewhere', () => {
    const html = renderConsole(loadModel(EXAMPLE('orders.yaml')));
    expect(html).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=/i);
    // The only url() references are the diagrams' own arrow markers, inside the page.
    expect(html).not.toMatch(/@import|url\((?!#)/);
  });

  it('labels an example whose values the spec does not all give as generated from the schema', () => {
    const html = renderConsole(model(false));
    const card = /<article class="route" id="op-createNote"[\s\S]*?<\/article>/.exec(html)![0];
    expect(card).toContain('<span class="tag generated"');
    expect(card).toContain('generated from the schema, not from the spec');
  });

  it("marks an example built only from the spec's declared values as such", () => {
    const html = renderConsole(model(true));
    const card = /<article class="route" id="op-createNote"[\s\S]*?<\/article>/.exec(html)![0];
    const request = /Request body[\s\S]*?<\/pre>/.exec(card)![0];
    expect(request).toContain("from the spec's declared examples");
    expect(request).toContain('Buy milk');
    // The error body's title and status are the declared code's own.
    expect(card).toContain('Failure &lt;/script&gt;');
  });

  for (const example of ['orders.yaml', 'library.yaml']) {
    it(`${example}: every route has a card, and every body an example`, () => {
      const m = loadModel(EXAMPLE(example));
      const html = renderConsole(m);
      for (const r of getRoutes(m)) expect(html).toContain(`<code class="path">${r.path}</code>`);
      const cards = html.match(/<article class="route"[\s\S]*?<\/article>/g)!;
      expect(cards.length).toBe(getRoutes(m).length + 4);
      // Every example heading that names a JSON media type is followed by its example.
      const heads = html.match(/<div class="ex-head"><strong>[^<]*json[^<]*<\/strong>/g) ?? [];
      const shown = html.match(/<div class="ex-head"><strong>[^<]*json[^<]*<\/strong>[^]*?<\/div><span class="tag (generated|declared)"[^]*?<pre>/g) ?? [];
      expect(heads.length).toBeGreaterThan(getRoutes(m).length);
      expect(shown.length).toBe(heads.length);
    });
  }

  it('doc --html writes the console', async () => {
    const r = await runCli(['doc', '--html', EXAMPLE('orders.yaml')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('id="console-data"');
    expect(r.stdout).toContain('id="event-viewer"');
  });
});

describe('code samples', () => {
  /** A sample's text as the page shows it before the script fills the base URL. */
  const sample = (html: string, route: string, language: string): string => {
    const card = new RegExp(`<article class="route" id="op-${route}"[\\s\\S]*?</article>`).exec(html)![0];
    const code = new RegExp(`<div class="sample" role="tabpanel" data-language="${language}"[^>]*><pre><code data-template="[^"]*">([\\s\\S]*?)</code>`).exec(
      card,
    )![1]!;
    return code
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  };

  it('use the scheme of each route: Basic user and password, the client id and secret at the token endpoint', () => {
    const library = renderConsole(loadModel(EXAMPLE('library.yaml')));
    const curl = sample(library, 'listMembers', 'curl');
    expect(curl).toMatch(/^curl -X GET 'http:\/\/localhost:3000\/[^']*\/members' \\\n {2}-u 'USER:PASSWORD'$/);
    const orders = renderConsole(loadModel(EXAMPLE('orders.yaml')));
    expect(sample(orders, 'token-payments', 'curl')).toContain(`-u 'CLIENT_ID:CLIENT_SECRET'`);
    expect(sample(orders, 'listOrders', 'curl')).toContain(`-H 'X-API-Key: sk_YOUR_API_KEY'`);
  });

  it('the Python samples are valid Python (the Basic one included)', () => {
    const library = renderConsole(loadModel(EXAMPLE('library.yaml')));
    const orders = renderConsole(loadModel(EXAMPLE('orders.yaml')));
    for (const [html, route] of [
      [library, 'listMembers'],
      [orders, 'createOrder'],
      [orders, 'token-payments'],
    ] as const) {
      const text = sample(html, route, 'python');
      expect(() => execFileSync('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: text })).not.toThrow();
    }
  });
});
