// A resource of several shapes (docs/format.md, "Resources of several shapes"): Pet is a Cat or a Dog, told apart by
// `kind`; every action serves it. Shared by the tests of every area.
import { CATCH_ALL_ERRORS } from '../check/helpers.js';

export const PET_VARIANTS_SPEC = `servicespec: 1
purpose: { name: Pets }
resources:
  Pet:
    plural: pets
    discriminator: kind
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 50 }
    variants:
      Cat:
        tag: cat
        description: A cat.
        fields:
          indoor: { type: boolean, optional: true }
      Dog:
        fields:
          breed: { type: string, minLength: 1 }
          good_boy: { type: boolean, optional: true }
endpoints:
  operations:
    createPet: { method: POST, path: /pets, action: create, resource: Pet }
    getPet: { method: GET, path: '/pets/{id}', action: read, resource: Pet }
    listPets: { method: GET, path: /pets, action: list, resource: Pet, filter: [kind] }
    updatePet: { method: PATCH, path: '/pets/{id}', action: update, resource: Pet }
    replacePet: { method: PUT, path: '/pets/{id}', action: replace, resource: Pet }
    deletePet: { method: DELETE, path: '/pets/{id}', action: delete, resource: Pet }
authentication:
  default: none
${CATCH_ALL_ERRORS}`;
