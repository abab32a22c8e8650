// A Patient made and replaced by PUT under the client's identifier (`upsert: true`), with no create operation:
// the spec the check, runtime, export, import and tester tests of upsert share.
import { PLAIN_ERRORS } from './specs.js';

export const UPSERT_SPEC = (extra = '', resourceExtra = 'identifier_source: client') => `servicespec: 1
resources:
  Patient:
    ${resourceExtra}
    fields:
      id: { type: string, pattern: '^P[0-9]{6}$' }
      name: { type: string, minLength: 1 }
      ward: { type: string, default: general }
endpoints:
  operations:
    getPatient: { method: GET, path: '/patients/{id}', action: read, resource: Patient }
    listPatients: { method: GET, path: /patients, action: list, resource: Patient }
    putPatient: { method: PUT, path: '/patients/{id}', action: replace, resource: Patient, upsert: true }
    deletePatient: { method: DELETE, path: '/patients/{id}', action: delete, resource: Patient }
${extra}
authentication:
  default: none
${PLAIN_ERRORS}`;
