// Conditional requests (`etag: true`): a Note with every one-object action, and a Contract whose changes must send
// If-Match (`if_match: required`): the spec the check, runtime, export, import, tester and diff tests of ETags share.
import { PLAIN_ERRORS } from './specs.js';

export const ETAG_ERRORS = `${PLAIN_ERRORS}    illegal: { status: 409, when: [illegal_transition] }
    stale: { status: 412, when: [precondition_failed] }
    tag_required: { status: 428, when: [precondition_required] }
`;

export const ETAG_SPEC = (noteExtra = 'etag: true', contractExtra = 'etag: true', errors = ETAG_ERRORS) => `servicespec: 1
resources:
  Note:
    ${noteExtra}
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, minLength: 1 }
      body: { type: string, optional: true }
      tags: { type: array, items: { type: string }, optional: true }
      status: { type: state }
      pin: { type: string, writeOnly: true, optional: true }
  Contract:
    ${contractExtra}
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string }
states:
  Note:
    field: status
    initial: draft
    transitions:
      publish: { from: draft, to: published }
    terminal: [published]
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note }
    getNote: { method: GET, path: '/notes/{id}', action: read, resource: Note }
    listNotes: { method: GET, path: /notes, action: list, resource: Note }
    updateNote: { method: PATCH, path: '/notes/{id}', action: update, resource: Note }
    replaceNote: { method: PUT, path: '/notes/{id}', action: replace, resource: Note }
    deleteNote: { method: DELETE, path: '/notes/{id}', action: delete, resource: Note }
    publishNote: { method: POST, path: '/notes/{id}/publish', action: transition, resource: Note, transition: publish }
    createContract: { method: POST, path: /contracts, action: create, resource: Contract }
    getContract: { method: GET, path: '/contracts/{id}', action: read, resource: Contract }
    updateContract: { method: PATCH, path: '/contracts/{id}', action: update, resource: Contract, if_match: required }
    deleteContract: { method: DELETE, path: '/contracts/{id}', action: delete, resource: Contract, if_match: required }
authentication:
  default: none
${errors}`;
