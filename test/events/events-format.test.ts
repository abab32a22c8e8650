// The format's `events.delivery.webhook.path` and `scopes`: the checker, the gap report, the routes, the runtime's
// gaps and the OpenAPI export all agree on what is served.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatGapReport, getGapReport } from '../../src/check/check-gaps.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import { getRoutes } from '../../src/model/model-routes.js';
import { compileSpecText } from '../../src/program.js';
import { getRuntimeGaps } from '../../src/runtime/service/runtime-gaps.js';
import { EVENTS_SPEC } from './helpers.js';

const text = readFileSync(EVENTS_SPEC, 'utf8');
const compile = (t: string) => compileSpecText(t);

describe('events.delivery.webhook.path and scopes', () => {
  it('are valid in the format and build into the model', () => {
    const c = compile(text);
    expect(c.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    expect(c.model!.events!.webhook).toMatchObject({ path: '/webhooks', scopes: ['webhooks:manage'] });
    expect(compile(text.replace('path: /webhooks', 'path: webhooks')).diagnostics.some((d) => d.severity === 'error')).toBe(true);
  });

  it('the gap report names a missing registration path', () => {
    const m = compile(text.replace(', path: /webhooks, scopes: ["webhooks:manage"]', '')).model!;
    expect(formatGapReport(getGapReport(m))).toContain('webhook registration path (webhook delivery): not shown');
    expect(getRoutes(m).some((r) => r.kind === 'webhooks')).toBe(false);
    expect(formatGapReport(getGapReport(compile(text).model!))).not.toContain('webhook registration path');
  });

  it('the checker refuses an undeclared scope and a path that collides with an operation or the stream', () => {
    const scope = compile(text.replace('scopes: ["webhooks:manage"] }', 'scopes: ["webhooks:admin"] }'));
    expect(scope.diagnostics.find((d) => d.code === 'unknown-scope')?.message).toContain('events.delivery.webhook requires scope `webhooks:admin`');
    const clash = compile(text.replace('path: /webhooks,', 'path: /tickets,'));
    expect(clash.diagnostics.filter((d) => d.code === 'route-conflict').map((d) => d.message)).toEqual([
      'the webhook registration path /tickets collides with operation `createTicket`',
      'the webhook registration path /tickets/{id} collides with operation `deleteTicket`',
    ]);
    expect(
      compile(text.replace('path: /webhooks,', 'path: /events,')).diagnostics.some(
        (d) => d.code === 'route-conflict' && d.message.includes('the event stream'),
      ),
    ).toBe(true);
  });

  it('the runtime names what it would fill in where the spec is silent', () => {
    const quiet = compile(
      text
        .replace('{ signing: standard-webhooks, retries: [100ms, 200ms], timeout: 500ms, path: /webhooks, scopes: ["webhooks:manage"] }', '{ path: /webhooks }')
        .replace(', heartbeat: 200ms', '')
        .replace(/^authentication:[\s\S]*?(?=^events:)/m, ''),
    ).model!;
    const items = getRuntimeGaps(quiet).map((g) => g.item);
    expect(items).toEqual(
      expect.arrayContaining([
        'webhook signing: not shown',
        'webhook retry schedule: not shown',
        'webhook delivery time-out: not shown',
        'authentication of the webhook registration operations: not shown',
      ]),
    );
    // Without a default requirement the stream is a gap like any operation with none (issue 12 item 5).
    expect(items.filter((i) => /stream/.test(i))).toEqual(['authentication requirement of the event stream: not shown']);
    expect(getRuntimeGaps(compile(text).model!).filter((g) => /webhook|stream/.test(g.item))).toEqual([]);
  });

  it('OpenAPI documents exactly the registration operations that are served, with their security', () => {
    const m = compile(text).model!;
    const doc = exportOpenApi(m).document as {
      paths: Record<string, Record<string, { operationId: string; security?: unknown; responses: Record<string, unknown> }>>;
    };
    expect(Object.keys(doc.paths['/webhooks']!).sort()).toEqual(['get', 'post']);
    expect(doc.paths['/webhooks']!.post!.operationId).toBe('addWebhookEndpoint');
    // Scopes of a non-OAuth2 scheme are not OpenAPI security scopes (Spectral's oas3-operation-security-defined):
    // the requirement names the scheme, and the scopes go to x-servicespec-required-scopes (docs/extensions.md).
    expect(doc.paths['/webhooks']!.post!.security).toEqual([{ key: [] }]);
    expect((doc.paths['/webhooks']!.post! as Record<string, unknown>)['x-servicespec-required-scopes']).toEqual(['webhooks:manage']);
    expect(Object.keys(doc.paths['/webhooks']!.post!.responses)).toEqual(expect.arrayContaining(['201', '401', '403', '422']));
    expect(Object.keys(doc.paths['/webhooks/{id}']!)).toEqual(['delete']);
    expect(doc.paths['/webhooks/{id}/rotate']!.post!.operationId).toBe('rotateWebhookSecret');
  });
});
