// The document says of a request_fields body that a field the path gives is taken too (bind), as the runtime does.
import { expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { renderMarkdown } from '../../src/render/render-markdown.js';

const spec = (bind: string) => `servicespec: 1
purpose: { name: Boards, summary: Notes on boards. }
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      board: { type: string }
      text: { type: string }
endpoints:
  operations:
    addNote: { method: POST, path: "/boards/{board}/notes", action: create, resource: Note, ${bind}request_fields: [text, board] }
authentication:
  default: none
`;

it('a request_fields body whose path binds a field says the path gives it', () => {
  const md = (text: string) => renderMarkdown(compileSpecText(text).model!);
  expect(md(spec('bind: { board: board }, '))).toContain(
    'Request: only the `Note` fields `text`, `board` (`request_fields`); any other field is refused, but for those the path gives (`bind`).',
  );
  expect(md(spec('').replace('/boards/{board}/notes', '/notes'))).toContain(
    'Request: only the `Note` fields `text`, `board` (`request_fields`); any other field is refused.',
  );
});
