import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { loadSpecText } from '../../src/spec/spec-loader.js';
import { getSpecSchema, validateSpec } from '../../src/spec/spec-validate.js';
import { yaml } from '../check/helpers.js';

/** Every diagnostic as `code line:column`, after checking none of it throws and no model is built. */
function diags(text: string): string[] {
  let r: ReturnType<typeof compileSpecText> | undefined;
  expect(() => {
    r = compileSpecText(text, 'bad.yaml');
  }).not.toThrow();
  expect(r!.model).toBeUndefined();
  return r!.diagnostics.map((d) => `${d.code} ${d.line}:${d.column}`);
}

function errors(text: string): string[] {
  return compileSpecText(text, 'ok.yaml')
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => `${d.code} ${d.line}:${d.column}`);
}

function message(text: string, index = 0): string {
  return compileSpecText(text).diagnostics[index]!.message;
}

describe('structure: the format version', () => {
  it('missing `servicespec`', () => {
    expect(diags('purpose: { name: Orders }\n')).toEqual(['missing-format-version 1:1']);
    expect(message('purpose: {}\n')).toBe('the key `servicespec` (the format version) is required');
  });

  it('`servicespec: 2` is an unsupported version', () => {
    expect(diags('servicespec: 2\n')).toEqual(['unsupported-format-version 1:14']);
    expect(message('servicespec: 2\n')).toBe('format version 2 is not supported; this tool reads version 1');
  });

  it('`servicespec: "1"` is the wrong type, reported once', () => {
    expect(diags('servicespec: "1"\n')).toEqual(['wrong-type 1:14']);
    expect(message('servicespec: "1"\n')).toBe('servicespec must be an integer');
  });

  it('`servicespec: 1.5` is the wrong type', () => {
    expect(diags('servicespec: 1.5\n')).toEqual(['wrong-type 1:14']);
  });
});

describe('structure: wrong types', () => {
  it('`resources: 3`', () => {
    expect(diags('servicespec: 1\nresources: 3\n')).toEqual(['wrong-type 2:12']);
    expect(message('servicespec: 1\nresources: 3\n')).toBe('resources must be a mapping');
  });

  it('a part written as a list', () => {
    expect(diags('servicespec: 1\npurpose: [a]\n')).toEqual(['wrong-type 2:10']);
  });

  it('a part left empty', () => {
    expect(diags('servicespec: 1\npurpose:\n')).toEqual(['wrong-type 2:9']);
  });

  it('a union (oneOf) names every shape it accepts', () => {
    expect(diags('servicespec: 1\nerrors:\n  body: 5\n')).toEqual(['wrong-type 3:9']);
    expect(message('servicespec: 1\nerrors:\n  body: 5\n')).toBe('errors.body must be one of: "problem", a mapping with `fields`');
    expect(message('servicespec: 1\nversioning:\n  current: [1]\n')).toBe('versioning.current must be one of: a string, an integer');
  });

  it('a union whose branch is a $ref reports once, with the shape named', () => {
    expect(diags('servicespec: 1\nauthentication:\n  default: nobody\n')).toEqual(['wrong-type 3:12']);
    expect(message('servicespec: 1\nauthentication:\n  default: nobody\n')).toBe('authentication.default must be one of: "none", a mapping');
  });

  it("a value meant for the mapping branch of a union reports that branch's error only", () => {
    const text = 'servicespec: 1\nauthentication:\n  default: { schemes: [a], scopse: [b] }\n';
    expect(diags(text)).toEqual(['unknown-key 3:28']);
    expect(message(text)).toBe('unknown key `scopse` at authentication.default; did you mean `scopes`?');
  });

  it('a version placement naming none of its four forms', () => {
    const text = 'servicespec: 1\nversioning:\n  placement: { hedaer: X }\n';
    expect(diags(text)).toEqual(['wrong-type 3:14']);
    expect(message(text)).toContain('a mapping with `header`, a mapping with `path`, a mapping with `query`, a mapping with `media_type`');
  });
});

describe('structure: unknown and missing keys', () => {
  it('`resorces:` suggests `resources`', () => {
    expect(diags('servicespec: 1\nresorces: {}\n')).toEqual(['unknown-key 2:1']);
    expect(message('servicespec: 1\nresorces: {}\n')).toBe('unknown key `resorces` at the top level; did you mean `resources`?');
  });

  it('a typo inside a field spec (`maxLenght`) suggests `maxLength`, at the key', () => {
    const text = yaml`
      servicespec: 1
      resources:
        Order:
          fields:
            name: { type: string, maxLenght: 3 }
    `;
    expect(diags(text)).toEqual(['unknown-key 5:29']);
    expect(message(text)).toBe('unknown key `maxLenght` at resources.Order.fields.name; did you mean `maxLength`?');
  });

  it('an unknown key with no close match has no suggestion', () => {
    expect(message('servicespec: 1\nfrobnicate: 1\n')).toBe('unknown key `frobnicate` at the top level');
  });

  it('`x-` extension keys are allowed at every level', () => {
    const r = compileSpecText('servicespec: 1\nx-team: checkout\npurpose:\n  x-note: hi\n  name: A\n');
    expect(r.diagnostics).toEqual([]);
  });

  it('a field without `type`', () => {
    const text = 'servicespec: 1\nresources:\n  Order:\n    fields:\n      id: { optional: true }\n';
    expect(diags(text)).toEqual(['missing-key 5:11']);
    expect(message(text)).toBe('`type` is required at resources.Order.fields.id');
  });

  it('an operation without `method`, located at its key', () => {
    const text = 'servicespec: 1\nendpoints:\n  operations:\n    getX:\n      path: /x\n      action: read\n';
    expect(diags(text)).toEqual(['missing-key 4:5']);
  });

  it('several problems are all reported, in source order', () => {
    const text = 'servicespec: 1\nresorces: {}\nlimits: { timeout: 5 seconds, rate: [{ per: 1m }] }\n';
    expect(diags(text)).toEqual(['unknown-key 2:1', 'invalid-value 3:20', 'missing-key 3:38']);
  });
});

describe('structure: invalid values', () => {
  it('`method: GTE` suggests GET', () => {
    const text = 'servicespec: 1\nendpoints:\n  operations:\n    x: { method: GTE, path: /x, action: list }\n';
    expect(diags(text)).toEqual(['invalid-value 4:18']);
    expect(message(text)).toBe('endpoints.operations.x.method: "GTE" is not one of "GET", "POST", "PUT", "PATCH", "DELETE"; did you mean "GET"?');
  });

  it('`method: get` suggests GET', () => {
    expect(message('servicespec: 1\nendpoints:\n  operations:\n    x: { method: get, path: /x, action: list }\n')).toContain('did you mean "GET"?');
  });

  it('a field named __proto__ is refused: JavaScript objects reserve the name', () => {
    const text = 'servicespec: 1\nresources:\n  Thing:\n    fields:\n      __proto__: { type: string }\n';
    expect(diags(text)).toEqual(['invalid-value 5:7']);
    expect(message(text)).toContain('`__proto__` is not a valid name here');
    expect(compileSpecText('servicespec: 1\nresources:\n  Thing:\n    fields:\n      _proto: { type: string }\n').model).toBeDefined();
  });

  it('a field type typo suggests the type', () => {
    expect(message('servicespec: 1\nresources:\n  Order:\n    fields:\n      id: { type: strng }\n')).toContain('did you mean "string"?');
  });

  it('an unknown condition suggests the condition', () => {
    const text = 'servicespec: 1\nerrors:\n  codes:\n    e: { status: 400, when: [validaton] }\n';
    expect(diags(text)).toEqual(['invalid-value 4:30']);
    expect(message(text)).toContain('did you mean "validation"?');
  });

  it('`timeout: 5 seconds` is not a duration', () => {
    expect(diags('servicespec: 1\nlimits:\n  timeout: 5 seconds\n')).toEqual(['invalid-value 3:12']);
    expect(message('servicespec: 1\nlimits:\n  timeout: 5 seconds\n')).toBe(
      'limits.timeout: "5 seconds" does not have the required form (A duration: a whole number followed by a unit, ms, s, m, h or d (for example 30s).)',
    );
  });

  it('`body_size: 64 KB` is not a size, and 0 bytes is too small', () => {
    expect(diags('servicespec: 1\nlimits:\n  body_size: 64 KB\n')).toEqual(['invalid-value 3:14']);
    expect(diags('servicespec: 1\nlimits:\n  body_size: 0\n')).toEqual(['invalid-value 3:14']);
  });

  it('a resource name that is not an OpenAPI component name starting with a letter is reported once, at the name (PascalCase is only the style)', () => {
    expect(diags('servicespec: 1\nresources:\n  line item: {}\n')).toEqual(['invalid-value 3:3']);
    expect(message('servicespec: 1\nresources:\n  _item: {}\n')).toBe(
      'resources: `_item` is not a valid name here (A resource name: a letter, then letters, digits, dots, hyphens and underscores, as an OpenAPI component name (PascalCase is the style: check warns with name-style otherwise).)',
    );
    expect(errors('servicespec: 1\nresources:\n  order: {}\n  line-item: {}\n  io.k8s.api.v1.Lease: {}\n')).toEqual([]);
  });

  it('an operation id is any text without control characters or surrounding spaces, as in OpenAPI', () => {
    const op = (id: string) => `servicespec: 1\nendpoints:\n  operations:\n    ${JSON.stringify(id)}: { method: GET, path: /a, action: custom, handler: h }\n`;
    expect(errors(op('find pet by id'))).toEqual([]);
    expect(errors(op('post-acceptDispute'))).toEqual([]);
    expect(diags(op(' padded'))).toEqual(['invalid-value 4:5']);
    expect(diags(op('tab\there'))).toEqual(['invalid-value 4:5']);
  });

  it('field names and event kinds on the wire may be camelCase; other forms are refused', () => {
    expect(errors('servicespec: 1\nresources:\n  Lease:\n    fields:\n      apiVersion: { type: string }\n')).toEqual([]);
    expect(diags('servicespec: 1\nresources:\n  Lease:\n    fields:\n      api-version: { type: string }\n')).toEqual(['invalid-value 5:7']);
    expect(diags('servicespec: 1\nresources:\n  Lease:\n    fields:\n      __proto__: { type: string }\n')).toEqual(['invalid-value 5:7']);
    expect(errors('servicespec: 1\nevents:\n  kinds:\n    paymentMethod.created: {}\n')).toEqual([]);
    expect(diags('servicespec: 1\nevents:\n  kinds:\n    payment-method.created: {}\n')).toEqual(['invalid-value 4:5']);
  });

  it('a path that does not start with /', () => {
    expect(diags('servicespec: 1\nendpoints:\n  operations:\n    x: { method: GET, path: x, action: list }\n')).toEqual(['invalid-value 4:29']);
  });

  it('numeric bounds and formats', () => {
    expect(diags('servicespec: 1\nerrors:\n  codes:\n    e: { status: 99 }\n')).toEqual(['invalid-value 4:18']);
    expect(diags('servicespec: 1\npurpose:\n  contact: { email: not-an-email }\n')).toEqual(['invalid-value 3:21']);
    expect(diags('servicespec: 1\nversioning:\n  supported:\n    - { version: 1, deprecated: "2026-02-30" }\n')).toEqual(['invalid-value 4:33']);
    expect(diags('servicespec: 1\nstates:\n  Order:\n    transitions:\n      go: { from: [], to: b }\n')).toEqual(['invalid-value 5:19']);
  });
});

describe('validateSpec directly', () => {
  it('returns nothing for a document that did not load', () => {
    expect(validateSpec(loadSpecText(''))).toEqual([]);
  });

  it('carries the JSON pointer and the file', () => {
    const ds = validateSpec(loadSpecText('servicespec: 1\nlimits:\n  timeout: soon\n', 'x.yaml'));
    expect(ds.map((d) => [d.code, d.pointer, d.file, d.line, d.column])).toEqual([['invalid-value', '/limits/timeout', 'x.yaml', 3, 12]]);
  });

  it('the shipped schema is draft 2020-12 and requires only `servicespec`', () => {
    const schema = getSpecSchema();
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.required).toEqual(['servicespec']);
    expect(Object.keys(schema.properties as object)).toEqual([
      'servicespec',
      'purpose',
      'resources',
      'states',
      'endpoints',
      'authentication',
      'events',
      'errors',
      'limits',
      'versioning',
      'shapes',
      'check',
    ]);
  });
});
