// A spec whose create and replace ignore unknown members and whose update refuses them (unknown_fields).
import { PLAIN_ERRORS } from './specs.js';

export const UNKNOWN_SPEC = `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string }
      meta: { type: object, optional: true, fields: { tag: { type: string } } }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note, unknown_fields: ignore }
    readNote: { method: GET, path: '/notes/{id}', action: read, resource: Note }
    replaceNote: { method: PUT, path: '/notes/{id}', action: replace, resource: Note, unknown_fields: ignore }
    updateNote: { method: PATCH, path: '/notes/{id}', action: update, resource: Note, unknown_fields: refuse }
authentication:
  default: none
${PLAIN_ERRORS}`;
