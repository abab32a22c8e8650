import { getApiKeyPlacement } from '../model/model-defaults.js';
import type { SchemeModel } from '../model/model-types.js';

// Code samples for one route of the docs console: curl, JavaScript (fetch) and Python (the standard library's
// urllib, so nothing needs installing). Each uses the route's real method and path, the first scheme it accepts
// with a placeholder for the secret, and the route's example body. `BASE_URL` is the page's base URL placeholder:
// the page's script writes the base URL in its place (render-console-assets.ts).

export const BASE_URL_MARK = '{{BASE_URL}}';

export interface SampleRequest {
  method: string;
  /** The path with its parameters filled in (placeholders where no value is known). */
  path: string;
  query: readonly (readonly [string, string])[];
  headers: readonly (readonly [string, string])[];
  /** Basic credentials: the placeholder for `user:password` (curl's -u), besides the headers. */
  basic?: string;
  contentType?: string;
  body?: string;
}

export interface Sample {
  language: 'curl' | 'javascript' | 'python';
  label: string;
  text: string;
}

/** The header (or query parameter) and placeholder a scheme's credential travels in. */
export function credentialPlaceholder(s: SchemeModel): { header?: readonly [string, string]; query?: readonly [string, string]; basic?: boolean } {
  switch (s.type) {
    case 'api_key': {
      const value = `${s.prefix ?? ''}YOUR_API_KEY`;
      const name = s.credentialName ?? 'X-API-Key';
      return getApiKeyPlacement(s) === 'query' ? { query: [name, value] } : { header: [name, value] };
    }
    case 'bearer':
      return { header: ['Authorization', 'Bearer YOUR_TOKEN'] };
    case 'oauth2_client_credentials':
      return { header: ['Authorization', 'Bearer YOUR_ACCESS_TOKEN'] };
    case 'basic':
      return { basic: true };
    default:
      return {};
  }
}

const sq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const js = (s: string) => JSON.stringify(s);
const py = (s: string) => JSON.stringify(s);

function url(r: SampleRequest): string {
  const qs = r.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${BASE_URL_MARK}${r.path}${qs ? `?${qs}` : ''}`;
}

export function renderSamples(r: SampleRequest): Sample[] {
  const headers: [string, string][] = r.headers.map(([k, v]) => [k, v]);
  if (r.body !== undefined && r.contentType) headers.push(['Content-Type', r.contentType]);
  const curl = [`curl -X ${r.method} ${sq(url(r))}`];
  if (r.basic !== undefined) curl.push(`-u ${sq(r.basic)}`);
  for (const [k, v] of headers) curl.push(`-H ${sq(`${k}: ${v}`)}`);
  if (r.body !== undefined) curl.push(`--data-raw ${sq(r.body)}`);

  const jsHeaders = [
    ...headers.map(([k, v]) => `    ${js(k)}: ${js(v)},`),
    ...(r.basic !== undefined ? [`    "Authorization": "Basic " + btoa(${js(r.basic)}),`] : []),
  ];
  const jsLines = [
    `const response = await fetch(${js(url(r))}, {`,
    `  method: ${js(r.method)},`,
    ...(jsHeaders.length > 0 ? ['  headers: {', ...jsHeaders, '  },'] : []),
    ...(r.body !== undefined ? [`  body: ${r.contentType?.includes('json') ? `JSON.stringify(${indent(r.body, '  ')})` : js(r.body)},`] : []),
    '});',
    'console.log(response.status, await response.text());',
  ];

  const pyHeaders = [
    ...headers.map(([k, v]) => `    ${py(k)}: ${py(v)},`),
    ...(r.basic !== undefined ? [`    "Authorization": "Basic " + base64.b64encode(${py(r.basic)}.encode()).decode(),`] : []),
  ];
  const pyBody =
    r.body === undefined ? undefined : r.contentType?.includes('json') ? `json.dumps(${pythonLiteral(r.body)}).encode()` : `${py(r.body)}.encode()`;
  const pyLines = [
    ...(r.basic !== undefined ? ['import base64'] : []),
    ...(r.body !== undefined && r.contentType?.includes('json') ? ['import json'] : []),
    'import urllib.request',
    '',
    'request = urllib.request.Request(',
    `    ${py(url(r))},`,
    `    method=${py(r.method)},`,
    ...(pyHeaders.length > 0 ? ['    headers={', ...pyHeaders.map((h) => `    ${h}`), '    },'] : []),
    ...(pyBody !== undefined ? [`    data=${pyBody},`] : []),
    ')',
    '# urlopen raises HTTPError for a 4xx or 5xx answer: its .code and .read() are the answer.',
    'with urllib.request.urlopen(request) as response:',
    '    print(response.status, response.read().decode())',
  ];
  return [
    { language: 'curl', label: 'curl', text: curl.join(' \\\n  ') },
    { language: 'javascript', label: 'JavaScript (fetch)', text: jsLines.join('\n') },
    { language: 'python', label: 'Python (urllib)', text: pyLines.join('\n') },
  ];
}

function indent(text: string, by: string): string {
  return text.split('\n').join(`\n${by}`);
}

/** A JSON text as a Python literal: true/false/null spelled Python's way, outside strings. */
function pythonLiteral(json: string): string {
  return indent(
    json.replace(/("(?:[^"\\]|\\.)*")|\btrue\b|\bfalse\b|\bnull\b/g, (m, str: string | undefined) =>
      str !== undefined ? str : m === 'true' ? 'True' : m === 'false' ? 'False' : 'None',
    ),
    '    ',
  );
}
