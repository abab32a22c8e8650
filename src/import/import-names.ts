// The spec format's names are narrower than OpenAPI's. A name the format allows is kept exactly, whatever its style
// (`apiVersion`, `pullrequest`, `newPet`: they are the names on the wire; `check` warns name-style). Others are turned
// into one of the format's, the same way every time; the importer reports each name that changed.

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '');
}

/** An OpenAPI component name is kept (`io.k8s.api.coordination.v1.Lease`, `pullrequest`); `_Links` → `Links`. */
export function toResourceName(name: string): string {
  if (/^[A-Za-z][A-Za-z0-9._-]*$/.test(name)) return name;
  const out = words(name)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
  if (out === '') return 'Resource';
  return /^[A-Z]/.test(out) ? out : `R${out}`;
}

/** `Content-Type` → `content_type`, `@type` → `type`; `apiVersion` and `push.recipient` (ably) stay. */
export function toFieldName(name: string): string {
  return /^(?!__proto__$)[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : snake(name);
}

/** `apiVersion` → `api_version`, `Content-Type` → `content_type`. */
function snake(name: string): string {
  const out = words(name)
    .map((w) => w.toLowerCase())
    .join('_');
  if (out === '') return '_';
  return /^[a-z_]/.test(out) ? out : `_${out}`;
}

/** An OpenAPI operationId is kept (`find pet by id`, `post-acceptDispute`); one with control characters or
 * surrounding spaces, and a made-up one (`get /pets`), becomes an identifier: `getPets`. */
export function toOperationId(name: string): string {
  if (isOperationId(name)) return name;
  return toIdentifier(name);
}

/** The format's operation id form (the schema's `operationId`). */
export function isOperationId(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /^[^\s\u0000-\u001f\u007f](?:[^\u0000-\u001f\u007f]*[^\s\u0000-\u001f\u007f])?$/u.test(name);
}

/** `find pets by id` → `findPetsById`, `list-pets` → `listPets`: a name code can use. */
export function toIdentifier(name: string): string {
  if (/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) return name;
  const ws = words(name);
  const out = ws.map((w, i) => (i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w.charAt(0).toUpperCase() + w.slice(1))).join('');
  if (out === '') return 'operation';
  return /^[A-Za-z]/.test(out) ? out : `op${out}`;
}

/** `new-pet` → `new_pet`, `order paid` → `order_paid`; `newPet` and `paymentMethod.created` stay. */
export function toEventKindName(name: string): string {
  if (/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*$/.test(name)) return name;
  const segments = name
    .split('.')
    .map((s) => snake(s).replace(/^_+/, ''))
    .filter((s) => s !== '')
    .map((s) => (/^[a-z]/.test(s) ? s : `e${s}`));
  return segments.length > 0 ? segments.join('.') : 'event';
}

/** `NotFound` → `not_found`, `Unprocessable Entity` → `unprocessable_entity`. */
export function toErrorCodeName(name: string): string {
  const out = snake(name).replace(/^_+/, '');
  if (out === '') return 'error';
  return /^[a-z]/.test(out) ? out : `e${out}`;
}

/** Hands out names: the first asker gets the name, later askers a numbered one. */
export class UniqueNames {
  private readonly taken = new Set<string>();
  /** `caseless`: names differing only in case are the same name (resources: check's name-case-clash). */
  constructor(
    private readonly separator = '',
    private readonly caseless = false,
  ) {}
  take(name: string): string {
    let candidate = name;
    for (let i = 2; this.has(candidate); i++) candidate = `${name}${this.separator}${i}`;
    this.taken.add(this.caseless ? candidate.toLowerCase() : candidate);
    return candidate;
  }
  has(name: string): boolean {
    return this.taken.has(this.caseless ? name.toLowerCase() : name);
  }
}
