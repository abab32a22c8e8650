// A custom operation's request is its written-out fields, which refuse a member they do not name. A document leaving
// the body open (GitHub's `PUT /issues/{n}/lock` with `{ lock_reason }`, no additionalProperties: false) had that rule
// added without a word (an outside sweep), and the tester then failed a faithful service accepting a member the
// document allows. Now said at the body; a closed body says nothing.
import { expect, it } from 'vitest';
import { importOpenApiDocument } from '../../src/import/import-openapi.js';

const doc = (closed: boolean) => ({
  openapi: '3.1.0',
  info: { title: 'Issues', version: '1' },
  paths: {
    '/issues/{n}/lock': {
      put: {
        operationId: 'lockIssue',
        parameters: [{ name: 'n', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { lock_reason: { type: 'string', enum: ['spam', 'resolved'] } },
                ...(closed ? { additionalProperties: false } : {}),
              },
            },
          },
        },
        responses: { '204': { description: 'locked' } },
      },
    },
  },
});
const said = async (closed: boolean) =>
  (await importOpenApiDocument(doc(closed), 'issues.json')).diagnostics.filter((d) => d.message.includes('leaves open')).map((d) => [d.code, d.pointer]);

it("a custom operation's open request body is said to refuse members it does not name; a closed one is not", async () => {
  expect(await said(false)).toEqual([['import-approximated', '/paths/~1issues~1{n}~1lock/put/requestBody/content/application~1json/schema']]);
  expect(await said(true)).toEqual([]);
});

// So is a form's: serve refuses a name its form does not declare (`unknown field Foo`, 422), where Twilio's forms
// (twilio-oai, spec/yaml/twilio_bulkexports_v1.yaml: UpdateExportConfiguration, CreateExportCustomJob) leave the
// object open. Before, not said.
it("a custom operation's open form body is said too; a closed one is not", async () => {
  const form = (closed: boolean) => ({
    openapi: '3.0.1',
    info: { title: 'Exports', version: '1' },
    paths: {
      '/v1/Exports/{ResourceType}/Configuration': {
        post: {
          operationId: 'UpdateExportConfiguration',
          parameters: [{ name: 'ResourceType', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': {
                schema: { type: 'object', properties: { Enabled: { type: 'boolean' } }, ...(closed ? { additionalProperties: false } : {}) },
              },
            },
          },
          responses: {
            '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object', properties: { enabled: { type: 'boolean' } } } } } },
          },
        },
      },
    },
  });
  const formSaid = async (closed: boolean) =>
    (await importOpenApiDocument(form(closed), 'exports.json')).diagnostics.filter((d) => d.message.includes('leaves open')).map((d) => [d.code, d.pointer]);
  expect(await formSaid(false)).toEqual([
    ['import-approximated', '/paths/~1v1~1Exports~1{ResourceType}~1Configuration/post/requestBody/content/application~1x-www-form-urlencoded/schema'],
  ]);
  expect(await formSaid(true)).toEqual([]);
});
