// A list's required filters (required_filters): one of its filters (required-filter-unknown), on a list only
// (misplaced-option).
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';

const spec = (op: string) => `
servicespec: 1
resources:
  Label:
    fields:
      id: { type: uuid, readOnly: true }
      project_id: { type: uuid }
      name: { type: string }
endpoints:
  operations:
    ${op}
`;

const diagnosticsOf = (text: string) => compileSpecText(text, 'spec.yaml').diagnostics;

describe('required_filters', () => {
  it('is clean when each names a filter of the list', () => {
    const d = diagnosticsOf(
      spec('listLabels: { method: GET, path: /labels, action: list, resource: Label, filter: [project_id, name], required_filters: [project_id], auth: none }'),
    );
    expect(d.filter((x) => x.severity === 'error' || x.code === 'misplaced-option')).toEqual([]);
  });
  it('required-filter-unknown: a required filter that is not a filter of the list', () => {
    const d = diagnosticsOf(
      spec('listLabels: { method: GET, path: /labels, action: list, resource: Label, filter: [name], required_filters: [project_id], auth: none }'),
    );
    const found = d.filter((x) => x.code === 'required-filter-unknown');
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toContain('required filter `project_id` is not one of its filters');
    expect(found[0]!.severity).toBe('error');
  });
  it('misplaced-option: required_filters on an action other than list', () => {
    const d = diagnosticsOf(spec('getLabel: { method: GET, path: "/labels/{id}", action: read, resource: Label, required_filters: [project_id], auth: none }'));
    expect(d.filter((x) => x.code === 'misplaced-option').map((x) => x.message)).toEqual([expect.stringContaining('required_filters')]);
  });
});
