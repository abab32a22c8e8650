// Response envelopes in the OpenAPI export (docs/format.md, "Response envelopes"): a success answer's schema is
// the envelope's, its data field holding what the operation answers without one.

import { getEnvelopeFieldsSchema } from '../model/model-envelope.js';
import type { EnvelopeModel, ServiceModel } from '../model/model-types.js';
import { annotateObjectSchema, type JsonObject } from './export-shared.js';

/** The envelope's schema around `data` (already in the export's form); `convert` is the export's schema conversion. */
export function getEnvelopeSchema(model: ServiceModel, envelope: EnvelopeModel, data: JsonObject, convert: (s: JsonObject) => JsonObject): JsonObject {
  const s = getEnvelopeFieldsSchema(model, envelope) as JsonObject;
  annotateObjectSchema(s, envelope.fields);
  const own = convert(s);
  const properties = { [envelope.data]: data, ...((own.properties as JsonObject | undefined) ?? {}) };
  const required = [envelope.data, ...((own.required as string[] | undefined) ?? [])];
  return { ...own, properties, required };
}
