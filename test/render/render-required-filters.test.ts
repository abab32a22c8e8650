// The nine-part document says which of a list's filters a request must send (required_filters), and the docs
// console's try-it marks its field required.
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { renderConsole } from '../../src/render/render-console.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';

const SPEC = `
servicespec: 1
resources:
  Label:
    fields:
      id: { type: uuid, readOnly: true }
      project_id: { type: uuid }
      name: { type: string }
endpoints:
  operations:
    listLabels: { method: GET, path: /labels, action: list, resource: Label, filter: [project_id, name], required_filters: [project_id] }
authentication:
  default: none
`;

describe('required_filters rendered', () => {
  const model = compileSpecText(SPEC).checked!;
  it('the document says the filter is required', () => {
    expect(renderMarkdown(model)).toContain('| `listLabels` | `project_id` (required: a request without it is refused), `name` | none |');
  });
  it("the console's try-it marks its field required, the other optional", () => {
    const html = renderConsole(model);
    expect(html).toMatch(/name="query:project_id" value="" placeholder="required"/);
    expect(html).toMatch(/name="query:name" value="" placeholder="optional"/);
  });
});
