// versioning.placement.media_type: a media type template with `{version}` where the version goes, such as
// `application/vnd.garden.v{version}+json` or `application/json; version={version}`. One reading for the runtime,
// the tester, the exports and the checker.

const VERSION = '{version}';
const TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** A version as a media type carries it: a token without `/`, `;`, `,`, quotes or spaces. */
const VERSION_VALUE = "([A-Za-z0-9!#$%&'*+.^_`|~-]+)";

/** A usable template, split into its parts: `{version}` in the subtype or in one parameter's value. */
export interface MediaTypeTemplate {
  readonly template: string;
  /** `type/subtype`, with `{version}` where the subtype has it. */
  readonly essence: string;
  /** Parameters, names in lower case, values as written (with `{version}` in at most one). */
  readonly params: readonly (readonly [string, string])[];
}

/** Splits `text` at `sep` outside double-quoted strings. */
function splitOutsideQuotes(text: string, sep: string): string[] {
  const out: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quoted) i++;
    else if (c === '"') quoted = !quoted;
    else if (c === sep && !quoted) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

function unquote(value: string): string {
  const v = value.trim();
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v;
}

/** One media type (or media range): essence in lower case and parameters (names in lower case, values unquoted). */
function parseMediaType(text: string): { essence: string; params: [string, string][] } | undefined {
  const [head, ...rest] = splitOutsideQuotes(text, ';');
  const essence = head!.trim();
  const slash = essence.indexOf('/');
  if (slash <= 0 || slash === essence.length - 1) return undefined;
  const params: [string, string][] = [];
  for (const p of rest) {
    if (p.trim() === '') continue;
    const eq = p.indexOf('=');
    if (eq < 0) return undefined;
    params.push([p.slice(0, eq).trim().toLowerCase(), unquote(p.slice(eq + 1))]);
  }
  return { essence, params };
}

/**
 * Why a template cannot be used, or undefined when it can: it must be `type/subtype` with optional `; name=value`
 * parameters, name `{version}` exactly once (in the subtype or a parameter's value), and, filled, be a JSON media
 * type (`application/json` or `application/…+json`), since every body the service reads and writes is JSON.
 */
export function getMediaTypeTemplateProblem(template: string): string | undefined {
  const count = template.split(VERSION).length - 1;
  if (count === 0) return 'does not contain `{version}`: no request could name a version';
  if (count > 1) return 'contains `{version}` more than once';
  const parsed = parseMediaType(template);
  if (!parsed) return 'is not a media type (`type/subtype`, with optional `; name=value` parameters)';
  const slash = parsed.essence.indexOf('/');
  const [type, subtype] = [parsed.essence.slice(0, slash), parsed.essence.slice(slash + 1)];
  if (type.includes(VERSION)) return "has `{version}` in the type; put it in the subtype or a parameter's value";
  const notMediaType = 'is not a media type (`type/subtype`, with optional `; name=value` parameters)';
  if (!TOKEN.test(type) || !TOKEN.test(subtype.replace(VERSION, '1'))) return notMediaType;
  for (const [name, value] of parsed.params) {
    if (name.includes(VERSION)) return "has `{version}` in a parameter's name; put it in the value";
    if (!TOKEN.test(name)) return notMediaType;
    if (value.includes(VERSION) && !TOKEN.test(value.replace(VERSION, '1'))) return 'has `{version}` in a parameter value that is not a plain token';
  }
  if (!isJsonMediaType(parsed.essence.replace(VERSION, '1')))
    return 'is not a JSON media type (`application/json` or `application/…+json`), and the service reads and writes JSON';
  return undefined;
}

/** Whether a media type's essence (`type/subtype`, any case) is JSON, as the service's body parser reads it. */
export function isJsonMediaType(essence: string): boolean {
  return /^application\/([a-z0-9.+-]+\+)?json$/i.test(essence.trim());
}

/** The parts of a usable template; undefined for one `check` reports (version-media-type-invalid). */
export function parseMediaTypeTemplate(template: string): MediaTypeTemplate | undefined {
  if (getMediaTypeTemplateProblem(template) !== undefined) return undefined;
  const parsed = parseMediaType(template)!;
  return { template, essence: parsed.essence, params: parsed.params };
}

/** The template with `version` filled in: the media type of that version. */
export function fillMediaType(template: string, version: string): string {
  return template.replace(VERSION, version);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A matcher for text with `{version}` in it (case-insensitive, as media type names are): the version, or undefined. */
function createPartMatcher(part: string): (text: string) => string | undefined {
  const at = part.indexOf(VERSION);
  if (at < 0) return (text) => (text.toLowerCase() === part.toLowerCase() ? '' : undefined);
  const re = new RegExp(`^${escape(part.slice(0, at))}${VERSION_VALUE}${escape(part.slice(at + VERSION.length))}$`, 'i');
  return (text) => re.exec(text)?.[1];
}

/**
 * Reads the version a header names through the template: the first media type (or media range, for `Accept`)
 * that is the template with a version filled in, and not refused with `q=0`. Its other parameters are ignored.
 * Undefined when none is (such as `application/json` or `*\/*`).
 */
export function createMediaTypeReader(t: MediaTypeTemplate): (header: string | undefined) => string | undefined {
  const essence = createPartMatcher(t.essence);
  const params = t.params.map(([name, value]) => [name, createPartMatcher(value)] as const);
  return (header) => {
    if (header === undefined || header === '') return undefined;
    for (const range of splitOutsideQuotes(header, ',')) {
      const m = parseMediaType(range);
      if (!m) continue;
      let version = essence(m.essence);
      if (version === undefined) continue;
      for (const [name, match] of params) {
        const value = m.params.find(([n]) => n === name)?.[1];
        const found = value === undefined ? undefined : match(value);
        if (found === undefined) {
          version = undefined;
          break;
        }
        if (found !== '') version = found;
      }
      const q = m.params.find(([n]) => n === 'q')?.[1];
      if (version === undefined || (q !== undefined && Number(q) === 0)) continue;
      return version;
    }
    return undefined;
  };
}
