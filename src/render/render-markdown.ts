import { PART_CONTENTS, PART_TITLES, formatGapItem, getGapReport, type GapReport, type PartGaps } from '../check/check-gaps.js';
import type {
  AuthRequirement,
  DeclaredErrorBodyModel,
  Duration,
  EventTriggerModel,
  FieldModel,
  OperationModel,
  PagingModel,
  SchemeModel,
  ServiceModel,
  ShapeModel,
  StateMachineModel,
  UnionModel,
  VersionChangeModel,
  VersionPlacementModel,
} from '../model/model-types.js';
import { describeEnvelope, REQUEST_ENVELOPED_ACTIONS } from '../model/model-envelope.js';
import { getVersionDifferences, type FieldDifference } from '../model/model-versions.js';
import {
  DEFAULT_IDEMPOTENCY_HEADER,
  getApiKeyPlacement,
  getErrorBodyRoles,
  getErrorCodeValue,
  getRateLimitName,
  getStatusText,
  isMergePatch,
  getUnknownFields,
  isRawEvent,
  NOT_SHOWN,
} from '../model/model-defaults.js';
import { getDeclaredFields, getStateField, NO_LIMITS } from '../model/model-lookup.js';
import { getNatsStreamSubjects } from '../model/model-broker.js';
import { getResponseHeaders } from '../model/model-response-headers.js';
import {
  answersETag,
  getCreateLocation,
  getUpsertLocation,
  getOperationRoute,
  getPagingParams,
  getRouteErrors,
  isIdempotentOperation,
  LIST_PARAMS,
  PAGE_FIELDS,
} from '../model/model-routes.js';
import { PART_NAMES, type PageMemberRole, type PartName } from '../spec/spec-types.js';

// The nine-part document, in the seed's order and headings (seed/service-interface-specification.md).
//
// The document is first built as a small tree of blocks (headings, paragraphs, lists, tables, state
// diagrams) and then written out; renderHtml (render-html.ts) writes the very same tree as HTML, so the
// two forms cannot drift apart. Rules the builder keeps:
// - order is the model's order, which is the file's order; nothing depends on the clock or the machine;
// - nothing undefined in the model is guessed: a table cell, list item or sentence for it says "not shown",
//   and each item the gap report names for a part is listed under that part in the seed's words;
// - "none" is written only where the format gives absence a meaning (a transition that emits no event,
//   a field with no constraint, an operation that lists no error codes).

/** Inline text: plain text, an identifier or literal (code), or strong text. */
export type Span = string | { readonly code: string } | { readonly strong: string };
export type Inline = readonly Span[];

export type Block =
  | { readonly kind: 'heading'; readonly level: 1 | 2 | 3 | 4; readonly text: string }
  | { readonly kind: 'paragraph'; readonly content: Inline }
  | { readonly kind: 'list'; readonly items: readonly Inline[] }
  | { readonly kind: 'table'; readonly head: readonly string[]; readonly rows: readonly (readonly Inline[])[] }
  /** A state machine drawn as a diagram; the HTML page draws it as SVG, Markdown relies on the tables. */
  | { readonly kind: 'diagram'; readonly machine: StateMachineModel };

export const DOCUMENT_TITLE = 'Service interface specification';

/**
 * What the seed adds after a part's "…: not shown." sentence when the whole part is absent. The first
 * sentence of each part is PART_CONTENTS (check-gaps.ts); these are the seed's second sentences.
 */
const SEED_ABSENT_NOTES: Readonly<Partial<Record<PartName, string>>> = {
  purpose: 'No single named service with a defined behaviour is described.',
  states: 'No state table can be given.',
  endpoints: 'No base address is defined; the placeholder {base_url} stands for it, and nothing is defined beneath it.',
};

const PLACEHOLDER_BASE_URL = '{base_url}';

// ---------------------------------------------------------------------------------------------------
// Small builders

const code = (text: string): Span => ({ code: text });
const strong = (text: string): Span => ({ strong: text });
const heading = (level: 1 | 2 | 3 | 4, text: string): Block => ({ kind: 'heading', level, text });
const para = (...content: Span[]): Block => ({ kind: 'paragraph', content });
const list = (items: readonly Inline[]): Block => ({ kind: 'list', items });
const table = (head: readonly string[], rows: readonly (readonly Inline[])[]): Block => ({ kind: 'table', head, rows });

/** Joins inline pieces with a separator (", " by default). */
/** What each page member holds, as the document says it (paging.members). */
const PAGE_MEMBER_TEXT: Readonly<Record<PageMemberRole, string>> = Object.freeze({
  page: "the page's number",
  size: 'the page size',
  pages: 'the number of pages',
  last_page: "the last page's number",
  count: 'the objects on this page',
  first: 'the first page',
  last: 'the last page',
  empty: 'an empty page',
  offset: 'the objects before this page',
  from: "the first object's position",
  to: "the last object's position",
});

function joinInline(parts: readonly Inline[], separator = ', '): Span[] {
  const out: Span[] = [];
  parts.forEach((p, i) => {
    if (i > 0) out.push(separator);
    out.push(...p);
  });
  return out;
}

const codes = (names: readonly string[], separator = ', '): Span[] =>
  joinInline(
    names.map((n) => [code(n)]),
    separator,
  );
/** A list's filters, each one a request must send (`required_filters`) said so. */
const filterSpans = (o: OperationModel): Span[] =>
  joinInline(o.filter.map((n) => (o.requiredFilters?.includes(n) ? [code(n), ' (required: a request without it is refused)'] : [code(n)])));
/**
 * An operation's errors as served and exported (getRouteErrors: the conditions it can produce and the codes it
 * declares), `code` (status) each; "none" only when it can answer with no declared code.
 */
function errorsText(m: ServiceModel, o: OperationModel): Span[] {
  const route = getOperationRoute(m, o.id);
  const errors = route ? getRouteErrors(m, route) : [];
  if (errors.length === 0) return ['none'];
  return joinInline(
    errors.map((e) => [code(e.code), ` (${getStatusText(e.status, e.statusRange)})`]),
    ', ',
  );
}

/**
 * The success status, where a create says the new object is (its Location header: getCreateLocation), and the
 * declared response headers (getResponseHeaders), each optional one said so.
 */
function successText(m: ServiceModel, o: OperationModel): Span[] {
  const route = getOperationRoute(m, o.id);
  const location = route ? getCreateLocation(m, route) : undefined;
  const status = getStatusText(o.status, o.statusRange);
  const out: Span[] = location === undefined ? [status] : [status, ', Location: ', code(location)];
  if (o.action === 'delete' && o.response?.resource !== undefined) out.push(', the deleted ', code(o.response.resource));
  // upsert: a PUT naming no object makes it (docs/format.md).
  if (o.upsert) {
    const made = route ? getUpsertLocation(m, route) : undefined;
    out.push('; creates the object when none has the identifier: 201', ...(made !== undefined ? [', Location: ', code(made)] : []), ' (', code('upsert'), ')');
  }
  // etag: the answer's ETag; if_match: required, a change without If-Match is refused.
  if (route && answersETag(route.resource, o)) out.push(', ', code('ETag'));
  if (o.ifMatch === 'required') out.push('; needs ', code('If-Match'), ' (', code('if_match: required'), ', else ', code('precondition_required'), ')');
  const declared = route ? getResponseHeaders(m, route).filter((h) => h.source === 'declared') : [];
  if (declared.length > 0)
    out.push(
      ', headers: ',
      ...joinInline(
        declared.map((h) => [code(h.name), ...(h.required ? [] : [' (optional)'])]),
        ', ',
      ),
    );
  return out;
}

/** Where a list's total is: its envelope's field, its response header (`total_header`), both, or none. */
function totalText(p: PagingModel): Span[] {
  const out: Span[] = [];
  if (p.total !== undefined) out.push(code(p.total));
  if (p.totalHeader !== undefined) out.push(...(out.length > 0 ? [' and '] : []), 'header ', code(p.totalHeader));
  return out.length > 0 ? out : ['none'];
}

const orNotShown = (text: string | undefined): Span[] => [text ?? NOT_SHOWN];
const codeOrNotShown = (text: string | undefined): Span[] => (text === undefined ? [NOT_SHOWN] : [code(text)]);
const durationText = (d: Duration | undefined): string => d?.text ?? NOT_SHOWN;
const jsonText = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** A labelled list item: "Label: value". */
const item = (label: string, ...value: Span[]): Inline => [`${label}: `, ...value];

// ---------------------------------------------------------------------------------------------------
// Fields

function typeText(f: FieldModel): string {
  switch (f.type) {
    case 'ref':
      return `ref → ${f.to ?? NOT_SHOWN}`;
    case 'enum':
      return f.values && f.values.length > 0 ? `enum: ${f.values.map(String).join(', ')}` : `enum: values ${NOT_SHOWN}`;
    case 'array':
      return `array of ${f.items ? typeText(f.items) : NOT_SHOWN}`;
    case 'map':
      return `map of ${f.items ? typeText(f.items) : NOT_SHOWN} (any member names)`;
    case 'union':
      return f.union ? unionText(f.union) : `union: variants ${NOT_SHOWN}`;
    default:
      return f.type;
  }
}

/** A union in words: its variants, and for a tagged one the discriminator property and each tag's variant. */
function unionText(u: UnionModel): string {
  if (u.discriminator === undefined) return `union (untagged) of ${u.variants.map((v) => v.name).join(', ')}`;
  return `union tagged by ${u.discriminator}: ${u.variants.map((v) => `${v.tag ?? v.name} → ${v.name}`).join(', ')}`;
}

function range(low: number | undefined, high: number | undefined, unit = ''): string | undefined {
  if (low !== undefined && high !== undefined) return `${low} to ${high}${unit}`;
  if (low !== undefined) return `at least ${low}${unit}`;
  if (high !== undefined) return `at most ${high}${unit}`;
  return undefined;
}

/** The constraints and flags of one field, as inline pieces (empty when it has none). */
function constraintParts(f: FieldModel): Inline[] {
  const parts: Inline[] = [];
  if (f.readOnly) parts.push(['read-only']);
  // source: service (where it holds; check's source-unused says where it does not): a named gap.
  if (f.source === 'service' && f.readOnly && !f.optional && !f.hasDefault && f.generated === undefined)
    parts.push(['the service sets it by a rule not shown']);
  if (f.generated === 'address') parts.push(["the object's own address (its read operation's path)"]);
  if (f.writeOnce) parts.push(['write-once']);
  if (f.writeOnly) parts.push(['write-only']);
  if (f.unique) parts.push(['unique']);
  if (f.nullable) parts.push([f.nullableInAnswersOnly ? 'nullable in answers (requests may not send null)' : 'nullable']);
  const length = range(f.minLength, f.maxLength);
  if (length) parts.push([`length ${length}`]);
  const value = range(f.minimum, f.maximum);
  if (value) parts.push([value]);
  if (f.exclusiveMinimum !== undefined) parts.push([`greater than ${f.exclusiveMinimum}`]);
  if (f.exclusiveMaximum !== undefined) parts.push([`less than ${f.exclusiveMaximum}`]);
  if (f.multipleOf !== undefined) parts.push([`multiple of ${f.multipleOf}`]);
  const items = range(f.minItems, f.maxItems, ' items');
  if (items) parts.push([items]);
  if (f.uniqueItems) parts.push(['items unique']);
  if (f.pattern !== undefined) parts.push(['pattern ', code(f.pattern)]);
  if (f.hasDefault) parts.push(['default ', code(jsonText(f.default))]);
  if (f.hasDefault && f.requiredInRequests === true) parts.push(['sent in every create and replace']);
  if (f.optionalInRequests !== undefined && !f.optional && !f.hasDefault)
    parts.push([`${f.optionalInRequests === 'create' ? 'creates' : 'creates and replaces'} may leave it out; its value then is not shown`]);
  if (f.hasExample) parts.push(['example ', code(jsonText(f.example))]);
  if (f.items && !f.items.fields) {
    const inner = constraintParts(f.items);
    if (inner.length > 0) parts.push(['each item: ', ...joinInline(inner, ', ')]);
  }
  return parts;
}

function fieldRows(fields: readonly FieldModel[], prefix = ''): Inline[][] {
  const rows: Inline[][] = [];
  for (const f of fields) {
    const name = `${prefix}${f.name}`;
    const constraints = constraintParts(f);
    rows.push([
      [code(name)],
      [typeText(f)],
      [f.optional ? 'no' : 'yes'],
      constraints.length > 0 ? joinInline(constraints, '; ') : ['none'],
      orNotShown(f.description),
    ]);
    rows.push(...childRows(f, name));
  }
  return rows;
}

/** Rows for what a field contains: an object's fields as `parent.child`, an array's element fields as `parent[].child`. */
function childRows(f: FieldModel, name: string): Inline[][] {
  const rows: Inline[][] = [];
  if (f.fields) rows.push(...fieldRows(f.fields, `${name}.`));
  if (f.items) rows.push(...childRows(f.items, `${name}[]`));
  // A union's variants, each as `name<variant>` with its tag, then its fields as `name<variant>.child`.
  for (const v of f.union?.variants ?? []) {
    const tag = f.union?.discriminator !== undefined ? [`${f.union.discriminator} = `, code(JSON.stringify(v.tag ?? v.name))] : ['none (untagged)'];
    rows.push([[code(`${name}<${v.name}>`)], [`variant ${v.name}`], ['—'], ['tag ', ...tag], orNotShown(v.description)]);
    rows.push(...fieldRows(v.fields, `${name}<${v.name}>.`));
  }
  return rows;
}

const FIELD_HEAD = ['Field', 'Type', 'Required', 'Constraints', 'Description'];
const fieldTable = (fields: readonly FieldModel[]): Block => table(FIELD_HEAD, fieldRows(fields));

/** A payload in a few words: "Order", "list of Order", "fields below". */
function shapeText(shape: ShapeModel | undefined): Span[] {
  if (!shape) return [NOT_SHOWN];
  const parts: Span[] = [];
  if (shape.resource !== undefined) parts.push(shape.list ? 'list of ' : '', code(shape.resource));
  if (shape.fields) parts.push(parts.length > 0 ? ' with the fields below' : shape.list ? 'list of the fields below' : 'the fields below');
  if (shape.union) parts.push(shape.list ? 'list of ' : '', `${unionText(shape.union)}, the variants below`);
  return parts.length > 0 ? parts.filter((p) => p !== '') : [NOT_SHOWN];
}

/** A shape as blocks: a sentence naming the resource, then its own fields as a table. */
function shapeBlocks(label: string, shape: ShapeModel): Block[] {
  const blocks: Block[] = [para(`${label}: `, ...shapeText(shape), '.')];
  if (shape.fields) blocks.push(fieldTable(shape.fields));
  for (const v of shape.union?.variants ?? []) {
    const tag: Span[] = shape.union?.discriminator !== undefined ? [' (', code(`${shape.union.discriminator}: ${JSON.stringify(v.tag ?? v.name)}`), ')'] : [];
    blocks.push(para('Variant ', code(v.name), ...tag, v.description !== undefined ? `: ${v.description}` : '', '.'), fieldTable(v.fields));
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------------
// The nine parts

function purposeBlocks(m: ServiceModel): Block[] {
  const p = m.purpose!;
  const blocks: Block[] = [];
  if (p.name !== undefined) blocks.push(p.summary !== undefined ? para(strong(p.name), `: ${p.summary}`) : para(strong(p.name)));
  else if (p.summary !== undefined) blocks.push(para(p.summary));
  if (p.description !== undefined) blocks.push(para(p.description));
  if (p.includes !== undefined || p.excludes !== undefined) {
    blocks.push(heading(3, 'Scope'));
    for (const [label, entries] of [
      ['In scope', p.includes],
      ['Out of scope', p.excludes],
    ] as const) {
      if (entries === undefined) blocks.push(para(`${label}: ${NOT_SHOWN}.`));
      else if (entries.length === 0) blocks.push(para(`${label}: none.`));
      else blocks.push(para(`${label}:`), list(entries.map((e) => [e])));
    }
  }
  if (p.audience !== undefined) {
    blocks.push(heading(3, 'Audience'));
    blocks.push(p.audience.length > 0 ? list(p.audience.map((a) => [a])) : para('None.'));
  }
  if (p.contact !== undefined) {
    blocks.push(heading(3, 'Contact'));
    blocks.push(list([item('Name', ...orNotShown(p.contact.name)), item('Email', ...orNotShown(p.contact.email)), item('Web', ...orNotShown(p.contact.url))]));
  }
  return blocks;
}

function resourceBlocks(m: ServiceModel): Block[] {
  const blocks: Block[] = [];
  for (const r of m.resources) {
    blocks.push(heading(3, r.name));
    blocks.push(r.description !== undefined ? para(r.description) : para(`Description: ${NOT_SHOWN}.`));
    const owner: Span[] =
      r.owner === undefined
        ? ['none']
        : [
            code(r.owner),
            `, set to the authenticated subject; another subject's ${r.name} is answered ${r.ownerAccess === 'forbidden' ? 'as forbidden' : 'as if it did not exist'}`,
            ...(r.ownerOverrideScopes.length > 0
              ? ['; holders of ', ...r.ownerOverrideScopes.flatMap((s, i) => (i === 0 ? [code(s)] : [' or ', code(s)])), " act on every subject's objects"]
              : []),
          ];
    // Keys unique together (unique_keys): said only where declared, each key's fields as code.
    const keys = (r.uniqueKeys ?? []).map((k) => item('Unique together', ...k.flatMap((p, i): Span[] => (i === 0 ? [code(p)] : [', ', code(p)]))));
    // answer_members: open, said where stated (the format's default, only the named members, is every other resource's).
    const open =
      r.answerMembers === 'open'
        ? [item('Other members in answers', 'allowed: an implementation may answer members not named here (', code('answer_members: open'), ')')]
        : [];
    // etag: true, said where stated (docs/format.md, "Conditional requests").
    const conditional = r.etag
      ? [
          item(
            'Conditional requests',
            'an ',
            code('ETag'),
            ' on every answer of one object; a read honours ',
            code('If-None-Match'),
            ' (304), an update, replace, delete or transition ',
            code('If-Match'),
            ' (',
            code('precondition_failed'),
            ' when stale) (',
            code('etag: true'),
            ')',
          ),
        ]
      : [];
    blocks.push(
      list([
        item('Identifier', ...codeOrNotShown(r.identifier)),
        ...keys,
        item('Plural', ...codeOrNotShown(r.plural)),
        item('Owner', ...owner),
        // parent (docs/format.md, "Resources under a parent"): said only where declared.
        ...(r.parent !== undefined
          ? [
              item(
                'Parent',
                `each ${r.name} belongs to one `,
                code(r.parent),
                ', which no field of it shows; a path names it (',
                code(`parent: ${r.parent}`),
                ')',
              ),
            ]
          : []),
        ...open,
        ...conditional,
      ]),
    );
    if (r.variants !== undefined) {
      // A resource of several shapes: the shared fields, then each variant with its tag and its own fields.
      const tag = r.variants.discriminator;
      const shared = getDeclaredFields(r);
      blocks.push(
        para(
          'Each object is one of the variants below, told apart by ',
          ...(tag !== undefined ? [code(tag), ', which it holds from its create on (it never changes)'] : [NOT_SHOWN]),
          '. Fields every variant holds:',
        ),
        shared.length > 0 ? fieldTable(shared) : para('Fields every variant holds: none.'),
      );
      for (const v of r.variants.variants)
        blocks.push(
          para(
            'Variant ',
            code(v.name),
            ...(tag !== undefined ? [' (', code(`${tag}: ${JSON.stringify(v.tag)}`), ')'] : []),
            v.description !== undefined ? `: ${v.description.replace(/\.$/, '')}` : '',
            '.',
          ),
          v.fields.length > 0 ? fieldTable(v.fields) : para('Fields of its own: none.'),
        );
    } else blocks.push(r.fields.length > 0 ? fieldTable(r.fields) : para(`Fields: ${NOT_SHOWN}.`));
  }
  return blocks;
}

function stateBlocks(m: ServiceModel): Block[] {
  const blocks: Block[] = [];
  for (const sm of m.stateMachines) {
    blocks.push(heading(3, sm.resource));
    const field = getStateField(m, sm);
    blocks.push(list([item('State field', ...codeOrNotShown(field)), item('Initial state', ...codeOrNotShown(sm.initial))]));
    if (sm.states.length > 0) blocks.push({ kind: 'diagram', machine: sm });
    if (sm.states.length > 0) {
      blocks.push(
        table(
          ['State', 'Terminal', 'Description'],
          sm.states.map((s) => [[code(s.name)], [s.terminal ? 'yes' : 'no'], orNotShown(s.description)]),
        ),
      );
    }
    if (sm.transitions.length > 0) {
      blocks.push(
        table(
          ['Transition', 'From', 'To', 'Requires', 'Emits', 'Description'],
          sm.transitions.map((t) => [
            [code(t.name)],
            codes(t.from),
            [code(t.to)],
            t.requires.length > 0 ? codes(t.requires) : ['none'],
            t.emits !== undefined ? [code(t.emits)] : ['none'],
            orNotShown(t.description),
          ]),
        ),
      );
    }
  }
  return blocks;
}

function requirementText(req: AuthRequirement | undefined): Span[] {
  if (req === undefined) return [NOT_SHOWN];
  if (req.kind === 'none') return ['none (no credential)'];
  const schemes: Span[] = req.schemes.length > 0 ? codes(req.schemes, ' or ') : [`scheme ${NOT_SHOWN}`];
  return req.scopes.length > 0 ? [...schemes, '; scopes ', ...codes(req.scopes)] : schemes;
}

function actionText(o: OperationModel): Span[] {
  if (o.action === 'transition') return ['transition ', ...codeOrNotShown(o.transition)];
  if (o.action === 'custom') return ['custom, handler ', ...codeOrNotShown(o.handler)];
  return [o.action];
}

function endpointBlocks(m: ServiceModel): Block[] {
  const e = m.endpoints!;
  const blocks: Block[] = [];
  if (e.baseUrl === PLACEHOLDER_BASE_URL) {
    blocks.push(
      para(
        `Base address: the placeholder ${PLACEHOLDER_BASE_URL} stands for it; the address itself is given at deployment. Every path below is relative to it.`,
      ),
    );
  } else if (e.baseUrl !== undefined) {
    blocks.push(para('Base address: ', code(e.baseUrl), '. Every path below is relative to it.'));
  }
  const ops = e.operations;
  if (ops.length > 0) {
    blocks.push(heading(3, 'Operations'));
    blocks.push(
      table(
        ['Operation', 'Method', 'Path', 'Action', 'Resource', 'Auth', 'Success', 'Errors', 'Summary'],
        ops.map((o) => [
          o.deprecated ? [code(o.id), ' (deprecated)'] : [code(o.id)],
          [o.method],
          [code(o.path)],
          actionText(o),
          o.resource !== undefined ? [code(o.resource)] : ['none'],
          requirementText(o.auth),
          successText(m, o),
          errorsText(m, o),
          [[o.summary, o.description].filter((s) => s !== undefined).join(' ') || NOT_SHOWN],
        ]),
      ),
    );
  }
  const listing = ops.filter((o) => o.action === 'list' || o.filter.length > 0 || o.sort.length > 0);
  if (listing.length > 0) {
    blocks.push(heading(3, 'Filters and sorting'));
    blocks.push(
      table(
        ['Operation', 'Filter by', 'Sort by'],
        listing.map((o) => [
          [code(o.id)],
          o.filter.length > 0 ? filterSpans(o) : ['none'],
          o.sort.length > 0
            ? [
                ...codes(o.sortValues.length === 2 * o.sort.length ? o.sort : o.sortValues),
                // The sort read under another name than `sort` (sort_param): the name a request sends.
                ...(o.sortParam !== undefined ? [' (query parameter ', code(o.sortParam), ')'] : []),
              ]
            : ['none'],
        ]),
      ),
    );
  }
  // Lists that state their paging; the others page as the format's cursor envelope (docs/format.md).
  const paged = ops.filter((o) => o.paging?.declared === true);
  if (paged.length > 0) {
    blocks.push(heading(3, 'List shapes'));
    blocks.push(
      para(
        "Lists not named here answer the format's page ",
        code(`{ ${PAGE_FIELDS.items}, ${PAGE_FIELDS.next} }`),
        ', paged by ',
        code(LIST_PARAMS.limit),
        ' and ',
        code(LIST_PARAMS.cursor),
        '.',
      ),
    );
    blocks.push(
      table(
        ['Operation', 'Paged by', 'Answer', 'Total', 'Next page in a Link header'],
        paged.map((o) => {
          const p = o.paging!;
          // A parameter `paging.params` renames is shown with its role: `continue` (cursor).
          const by = getPagingParams(o).map((q): Inline => (q.kind in p.params ? [code(q.name), ` (${q.kind})`] : [code(q.name)]));
          const answer =
            p.body === 'array'
              ? ['a bare array']
              : [
                  code(
                    `{ ${[...Object.entries(p.constants ?? {}).map(([k, v]) => `${k}: ${JSON.stringify(v)}`), p.items, ...(p.style === 'cursor' && p.next !== undefined ? [p.next] : []), ...(p.total !== undefined ? [p.total] : []), ...(p.hasMore !== undefined ? [p.hasMore] : []), ...(p.url !== undefined ? [`${p.url} (the request's path)`] : []), ...(p.nextLink !== undefined ? [`${p.nextLink} (the next page's address)`] : []), ...(p.previousLink !== undefined ? [`${p.previousLink} (the previous page's address)`] : []), ...(p.members ?? []).map((m) => `${m.path.join('.')} (${PAGE_MEMBER_TEXT[m.role]})`)].join(', ')} }`,
                  ),
                  // first_page: 0 numbers the pages from 0 (Spring Data's).
                  ...(p.style === 'page' && p.firstPage === 0 ? ['; pages numbered from 0'] : []),
                  // next_optional: the cursor is left out on the last page, not null there.
                  ...(p.style === 'cursor' && p.next !== undefined && p.nextOptional ? ['; ', code(p.next), ' left out on the last page'] : []),
                ];
          return [
            [code(o.id)],
            by.length > 0 ? joinInline(by) : [p.style === 'none' ? 'nothing: every object at once' : 'none'],
            answer,
            totalText(p),
            [p.link ? 'yes' : 'no'],
          ];
        }),
      ),
    );
  }
  // Path parameters bound to fields (\`bind\`, docs/format.md): what each names, and what the action does with it.
  const bound = ops.filter((o) => o.bindings !== undefined && o.bindings.length > 0);
  if (bound.length > 0) {
    blocks.push(heading(3, 'Path parameters bound to fields'));
    const use: Record<string, string> = {
      create: "sets the created object's field (a body value must equal it)",
      list: 'lists only the objects holding this value',
    };
    blocks.push(
      table(
        ['Operation', 'Path parameter', 'Field', 'Meaning'],
        bound.flatMap((o) =>
          o.bindings!.map((b) => [
            [code(o.id)],
            [code(`{${b.param}}`)],
            [code(b.field)],
            [
              b.parent && b.parent.level > 1
                ? `names the ${b.parent.resource} the path's parent is under, found first (none holds it, or the parent is not under it: missing)`
                : b.parent
                  ? `names the ${b.parent.resource} the objects belong to (none holds it: missing)${o.action === 'create' ? '; the object is made under it' : o.action === 'list' ? '; lists only its objects' : ''}`
                  : (use[o.action] ?? "finds the object by it, with the path's other values (none holds them: missing)"),
            ],
          ]),
        ),
      ),
    );
  }
  // Response envelopes: where each wrapped answer is, and the value each other field carries (docs/format.md).
  const enveloped = ops.filter((o) => o.envelope !== undefined);
  if (enveloped.length > 0) {
    blocks.push(heading(3, 'Response envelopes'));
    blocks.push(
      para(
        'These answers come wrapped: the object (or the list) in the data field, each other field holding the value named (a list’s values on lists only; a field no value fills is left out). Error answers are not wrapped.',
      ),
    );
    blocks.push(
      table(
        ['Operation', 'Answer in', 'Envelope', 'Declared'],
        enveloped.map((o) => [
          [code(o.id)],
          [code(o.envelope!.data)],
          [describeEnvelope(o.envelope)],
          [o.envelopeDeclared !== undefined ? 'by the operation' : 'endpoints.envelope'],
        ]),
      ),
    );
  }
  // Callbacks: the events about a created object POSTed to the URL its request gave (docs/format.md, "Callbacks").
  const called = ops.flatMap((o) => (o.callbacks ?? []).map((c) => ({ o, c })));
  if (called.length > 0) {
    blocks.push(heading(3, 'Callbacks'));
    blocks.push(
      para(
        'Each is sent to the URL the create request gives in its field, as webhooks are sent (signing, retries, time-out of the events part), with the events about the object the request created.',
      ),
    );
    blocks.push(
      table(
        ['Operation', 'Callback', 'URL from request field', 'Events', 'Description'],
        called.map(({ o, c }) => [[code(o.id)], [code(c.name)], [code(c.url)], codes(c.events), [c.description ?? NOT_SHOWN]]),
      ),
    );
  }
  const shaped = ops.filter(
    (o) =>
      o.request ||
      o.response ||
      o.action === 'custom' ||
      o.query.length > 0 ||
      o.headers.length > 0 ||
      o.requestFields !== undefined ||
      o.answerFields !== undefined ||
      o.requestMediaType !== undefined ||
      o.requestEnvelope !== undefined ||
      getUnknownFields(o) === 'ignore',
  );
  if (shaped.length > 0) {
    blocks.push(heading(3, 'Request and response shapes'));
    for (const o of shaped) {
      blocks.push(heading(4, o.id));
      const bodyless = o.method === 'GET' || o.method === 'DELETE';
      if (o.request) blocks.push(...shapeBlocks('Request', o.request));
      else if (o.requestFields !== undefined)
        // request_fields: the request takes these writable fields of the resource only (docs/format.md).
        blocks.push(
          para(
            'Request: only the ',
            code(o.resource ?? ''),
            ' fields ',
            ...codes(o.requestFields),
            ' (',
            code('request_fields'),
            ...(getUnknownFields(o) === 'ignore'
              ? ['); any other member is dropped (', code('unknown_fields: ignore'), ').']
              : (o.bindings?.length ?? 0) > 0
                ? ['); any other field is refused, but for those the path gives (', code('bind'), ').']
                : ['); any other field is refused.']),
          ),
        );
      else if (getUnknownFields(o) === 'ignore')
        // unknown_fields: ignore: an open request object (docs/format.md).
        blocks.push(
          para(
            'Request: the writable ',
            code(o.resource ?? ''),
            ' fields; a member it does not name is accepted and dropped, never stored nor answered (',
            code('unknown_fields: ignore'),
            ').',
          ),
        );
      else if (o.takesNoBody) blocks.push(para('Request: no body (', code('request: none'), ').'));
      else if (o.action === 'custom' && !bodyless) blocks.push(para(`Request: ${NOT_SHOWN}.`));
      // request_media_type: the one type the body is sent as; an update's merge patch reads a null as a removal.
      if (o.requestMediaType !== undefined)
        blocks.push(
          para(
            'Request media type: ',
            code(o.requestMediaType),
            ...(isMergePatch(o)
              ? [' only: a JSON merge patch (RFC 7396): a null removes a field that may be absent, an object merges into the stored one.']
              : [' only.']),
          ),
        );
      // request_envelope: the body goes wrapped in its one member (Rails-style).
      if (o.requestEnvelope !== undefined && REQUEST_ENVELOPED_ACTIONS.has(o.action))
        blocks.push(
          para(
            'Request wrapper: the body is sent as ',
            code(`{ ${JSON.stringify(o.requestEnvelope.data)}: … }`),
            ', the object holding only that member (',
            code('request_envelope'),
            '); a body sent bare is refused.',
          ),
        );
      if (o.response) blocks.push(...shapeBlocks('Response', o.response));
      else if (o.action === 'custom') blocks.push(para(`Response: ${NOT_SHOWN}.`));
      // answer_fields: each object of the list carries these fields of the resource only (docs/format.md).
      else if (o.action === 'list' && o.answerFields !== undefined)
        blocks.push(
          para('Response: each ', code(o.resource ?? ''), ' of the list carries only the fields ', ...codes(o.answerFields), ' (', code('answer_fields'), ').'),
        );
      // Declared query parameters and headers, in the table of fields (a deprecated one says so in its description).
      for (const [label, params] of [
        ['Query parameters', o.query],
        ['Headers', o.headers],
      ] as const) {
        if (params.length === 0) continue;
        blocks.push(para(`${label}:`));
        blocks.push(fieldTable(params.map((p) => (p.deprecated ? { ...p, description: `(deprecated) ${p.description ?? ''}`.trim() } : p))));
      }
    }
  }
  const idem = e.idempotency;
  if (idem) {
    // What the spec leaves out is the format's default (docs/format.md), said so as `gaps` says it.
    const declared = ops.filter((o) => o.idempotent === true && isIdempotentOperation(m, o)).map((o) => o.id);
    const implied = ops.filter((o) => o.idempotent === undefined && isIdempotentOperation(m, o)).map((o) => o.id);
    const operations: Span[] = [...(declared.length > 0 ? codes(declared) : [])];
    if (implied.length > 0) operations.push(...(declared.length > 0 ? ['; '] : []), ...codes(implied), ' (format default: every POST, PUT, PATCH and DELETE)');
    blocks.push(heading(3, 'Idempotency'));
    blocks.push(
      list([
        item('Key header', ...(idem.header !== undefined ? [code(idem.header)] : [code(DEFAULT_IDEMPOTENCY_HEADER), ' (format default)'])),
        item('Retention', durationText(idem.retention)),
        item('Idempotent operations', ...(operations.length > 0 ? operations : ['none'])),
      ]),
    );
  } else if (ops.some((o) => o.idempotent === true)) {
    // Without endpoints.idempotency no operation takes a key, whatever it declares.
    blocks.push(heading(3, 'Idempotency'));
    const named = ops.filter((o) => o.idempotent === true).map((o) => o.id);
    blocks.push(
      list([
        item('Key header', NOT_SHOWN),
        item(
          'Idempotent operations',
          'none (without ',
          code('endpoints.idempotency'),
          ' no operation takes a key; declared idempotent: ',
          ...codes(named),
          ')',
        ),
      ]),
    );
  }
  return blocks;
}

const SCHEME_TYPES: Readonly<Record<SchemeModel['type'], string>> = {
  api_key: 'API key',
  basic: 'HTTP Basic',
  bearer: 'bearer token',
  oauth2_client_credentials: 'OAuth 2.0 client credentials',
};

function credentialText(s: SchemeModel): Span[] {
  switch (s.type) {
    case 'api_key': {
      const where = getApiKeyPlacement(s) === 'query' ? 'query parameter' : 'header';
      const name: Span[] = s.credentialName !== undefined ? [' ', code(s.credentialName)] : [` name ${NOT_SHOWN}`];
      const prefix: Span[] = s.prefix !== undefined ? [', prefix ', code(s.prefix)] : [];
      return [where, ...name, ...prefix];
    }
    case 'basic':
      return [code('Authorization'), ' header, ', code('Basic'), ' user and password'];
    case 'bearer':
      return [code('Authorization'), ' header, ', code('Bearer'), ' token'];
    case 'oauth2_client_credentials':
      return ['client credentials exchanged at ', ...codeOrNotShown(s.tokenPath), ' for a ', code('Bearer'), ' token'];
  }
}

function schemeDetails(s: SchemeModel): Span[] {
  if (s.type !== 'bearer' && s.type !== 'oauth2_client_credentials') return ['none'];
  const parts: Inline[] = [item('token', s.token === 'jwt' ? 'JWT' : NOT_SHOWN), item('algorithms', ...(s.algorithms ? codes(s.algorithms) : [NOT_SHOWN]))];
  if (s.type === 'bearer' || s.issuer !== undefined) parts.push(item('issuer', ...codeOrNotShown(s.issuer)));
  if (s.type === 'bearer' || s.audience !== undefined) parts.push(item('audience', ...codeOrNotShown(s.audience)));
  parts.push(item('lifetime', durationText(s.lifetime)), item('clock tolerance', durationText(s.clockTolerance)));
  return joinInline(parts, '; ');
}

function authenticationBlocks(m: ServiceModel): Block[] {
  const a = m.authentication!;
  const blocks: Block[] = [];
  if (a.schemes.length > 0) {
    blocks.push(heading(3, 'Schemes'));
    blocks.push(
      table(
        ['Scheme', 'Type', 'Credential', 'Details', 'Description'],
        a.schemes.map((s) => [[code(s.name)], [SCHEME_TYPES[s.type]], credentialText(s), schemeDetails(s), orNotShown(s.description)]),
      ),
    );
  }
  if (a.scopes.length > 0) {
    blocks.push(heading(3, 'Scopes'));
    blocks.push(
      table(
        ['Scope', 'Description'],
        a.scopes.map((s) => [[code(s.name)], [s.description]]),
      ),
    );
  }
  blocks.push(heading(3, 'Requirements'));
  blocks.push(para('Default requirement: ', ...requirementText(a.default), '.'));
  const own = (m.endpoints?.operations ?? []).filter((o) => o.authDeclared === 'operation');
  if (own.length > 0) {
    blocks.push(para('Operations with their own requirement:'));
    blocks.push(
      table(
        ['Operation', 'Requirement'],
        own.map((o) => [[code(o.id)], requirementText(o.auth)]),
      ),
    );
  }
  return blocks;
}

function triggerText(t: EventTriggerModel): Inline {
  return t.action === 'transition' ? ['transition ', code(`${t.resource}.${t.transition}`)] : [`${t.action} `, code(t.resource)];
}

function eventBlocks(m: ServiceModel): Block[] {
  const e = m.events!;
  const blocks: Block[] = [];
  if (e.kinds.length > 0) {
    blocks.push(heading(3, 'Kinds'));
    blocks.push(
      table(
        ['Kind', 'Triggers', 'Payload', 'Description'],
        e.kinds.map((k) => [
          [code(k.name)],
          k.triggers.length > 0 ? joinInline(k.triggers.map(triggerText)) : ['none'],
          isRawEvent(k) ? [...shapeText(k.payload), ', delivered raw (the payload is the whole body, no envelope)'] : shapeText(k.payload),
          orNotShown(k.description),
        ]),
      ),
    );
    const withFields = e.kinds.filter((k) => k.payload?.fields);
    if (withFields.length > 0) {
      blocks.push(heading(3, 'Payloads'));
      for (const k of withFields) blocks.push(heading(4, k.name), fieldTable(k.payload!.fields!));
    }
  }
  if (e.webhook || e.stream || e.broker) {
    blocks.push(heading(3, 'Delivery'));
    const items: Inline[] = [];
    if (e.webhook) {
      const w = e.webhook;
      items.push(
        item('Webhook signing', w.signing === 'standard-webhooks' ? 'Standard Webhooks' : NOT_SHOWN),
        item('Webhook retries', w.retries === undefined ? NOT_SHOWN : w.retries.length > 0 ? `after ${w.retries.map((r) => r.text).join(', ')}` : 'none'),
        item('Webhook time-out', durationText(w.timeout)),
      );
    }
    if (e.stream) items.push(item('Stream path', ...codeOrNotShown(e.stream.path)), item('Stream heartbeat', durationText(e.stream.heartbeat)));
    if (e.broker?.nats) {
      const n = e.broker.nats;
      items.push(
        item('NATS subject', code(n.subject)),
        item(
          'JetStream stream',
          ...(n.stream !== undefined
            ? [code(n.stream), ' (created with the subjects ', ...joinInline(getNatsStreamSubjects(m, e).map((x) => [code(x)])), ' when missing)']
            : ['not named (an existing stream must capture the subjects)']),
        ),
      );
    }
    if (e.broker?.amqp) items.push(item('AMQP exchange', code(e.broker.amqp.exchange)), item('AMQP routing key', code(e.broker.amqp.routingKey)));
    blocks.push(list(items));
  }
  return blocks;
}

/** Which fields of a declared error body carry the code, status and message (getErrorBodyRoles), and its media type. */
function errorRolesBlock(body: DeclaredErrorBodyModel): Block {
  const roles = getErrorBodyRoles(body);
  const role = (label: string, what: 'code' | 'status' | 'message', holds: string): Inline => {
    const path = roles.at[what];
    if (!path) return [`${label}: no field (the body does not carry it)`];
    return [`${label}: `, code(path.join('.')), ` (${holds}${roles.named[what] ? '' : '; found by its name, a format default'})`];
  };
  const codeHolds =
    body.codeValues === 'unstated'
      ? "a value the spec does not state for each code (code_values: unstated); the service writes the code's name, a format default"
      : roles.code && typeof getErrorCodeValue(roles.code, { name: '', status: 0 }) === 'number'
        ? "the code's HTTP status: the field is a number"
        : "the code's name";
  return list([
    role('Code', 'code', codeHolds),
    role('Status', 'status', 'the HTTP status'),
    role('Message', 'message', "what went wrong, else the code's title"),
    ...roles.extras.map(
      ([, what, path]) =>
        [
          `Also filled: `,
          code(path.join('.')),
          ` (${what === 'invalid' ? 'the invalid inputs' : what === 'empty list' ? "an empty list: its items are not the invalid inputs' shape" : what})`,
        ] as Inline,
    ),
    ['Media type: ', code(roles.mediaType), ...(body.mediaType === undefined ? [' (format default)'] : [])],
    // answer_members: open, said where stated (the format's default, only the named fields, goes unsaid as for resources).
    ...(body.answerMembers === 'open'
      ? [['Other members: allowed: an implementation may answer members not named here (', code('answer_members: open'), ')'] as Inline]
      : []),
  ]);
}

function errorBlocks(m: ServiceModel): Block[] {
  const e = m.errors!;
  const blocks: Block[] = [];
  if (e.body?.kind === 'problem') {
    blocks.push(heading(3, 'Body'), para('Error bodies are problem details (RFC 9457).'));
  } else if (e.body?.kind === 'declared') {
    blocks.push(heading(3, 'Body'), para('Error bodies have these fields:'), fieldTable(e.body.fields), errorRolesBlock(e.body));
  }
  if (e.codes.length > 0) {
    blocks.push(heading(3, 'Codes'));
    blocks.push(
      table(
        ['Code', 'Status', 'Title', 'Conditions', 'Description'],
        e.codes.map((c) => [
          [code(c.name)],
          [getStatusText(c.status, c.statusRange)],
          orNotShown(c.title),
          c.when.length > 0 ? codes(c.when) : ['none'],
          orNotShown(c.description),
        ]),
      ),
    );
  }
  return blocks;
}

const OVER_MAX: Readonly<Record<'reject' | 'clamp', string>> = { reject: 'rejected', clamp: 'lowered to the maximum' };

function limitBlocks(m: ServiceModel): Block[] {
  // No `limits` in the file, but a list's own page sizes: every other row not shown.
  const l = m.limits ?? NO_LIMITS;
  const rows: Inline[][] = [];
  if (l.rate.length === 0) rows.push([['Rate limits'], [NOT_SHOWN]]);
  l.rate.forEach((r, i) => {
    const value: Span[] = [`${r.requests} requests per ${r.per.text}, by ${r.by ?? NOT_SHOWN}`];
    if (r.operations) value.push('; operations ', ...codes(r.operations));
    if (r.onStoreFailure) value.push(`; if the limit store fails: ${r.onStoreFailure === 'open' ? 'allow (open)' : 'refuse (closed)'}`);
    if (r.name === undefined) value.push('; named ', code(getRateLimitName(r, i)), ' in RateLimit-Policy (format default)');
    rows.push([r.name !== undefined ? ['Rate limit ', code(r.name)] : [`Rate limit ${i + 1}`], value]);
  });
  const size = (s: { text: string; bytes: number } | undefined): Span[] =>
    s === undefined ? [NOT_SHOWN] : [s.text === `${s.bytes} B` ? s.text : `${s.text} (${s.bytes} bytes)`];
  const num = (n: number | undefined): Span[] => [n === undefined ? NOT_SHOWN : String(n)];
  rows.push(
    [['Request body size'], size(l.bodySize)],
    [['Request header size'], size(l.headerSize)],
    [['Nesting depth'], num(l.nestingDepth)],
    [['Page size, default'], num(l.pageSize?.default)],
    [['Page size, maximum'], num(l.pageSize?.max)],
    [['Page size above the maximum'], [l.pageSize?.overMax ? OVER_MAX[l.pageSize.overMax] : NOT_SHOWN]],
    // A list's own paging.page_size: each key it states, the others as the rows above say.
    ...(m.endpoints?.operations ?? []).flatMap((o): Span[][][] => {
      const own = o.paging?.pageSize;
      if (!own) return [];
      const parts = [
        ...(own.default !== undefined ? [`default ${own.default}`] : []),
        ...(own.max !== undefined ? [`at most ${own.max}`] : []),
        ...(own.overMax !== undefined ? [`above the maximum ${OVER_MAX[own.overMax]}`] : []),
      ];
      return [[['Page size of ', code(o.id)], [`${parts.join(', ')} (paging.page_size; the rest as above)`]]];
    }),
    [['Time-out'], [durationText(l.timeout)]],
    [['Concurrent requests'], num(l.concurrency)],
    [['Failed credentials per address and per credential id'], [l.failedAuth ? `${l.failedAuth.attempts} per ${l.failedAuth.per.text}` : NOT_SHOWN]],
  );
  return [table(['Limit', 'Value'], rows)];
}

function placementText(p: VersionPlacementModel | undefined): Span[] {
  if (p === undefined) return [NOT_SHOWN];
  switch (p.kind) {
    case 'header':
      return ['header ', code(p.name)];
    case 'path':
      return ['path prefix ', code(p.template)];
    case 'query':
      return ['query parameter ', code(p.name)];
    case 'media_type':
      return ['media type ', code(p.template), ' (Accept, and Content-Type for a body)'];
  }
}

const DEFAULT_SELECTION: Readonly<Record<'current' | 'oldest' | 'required', string>> = {
  current: 'a request that names no version gets the current version',
  oldest: 'a request that names no version gets the oldest supported version not past its sunset (the current one once all are)',
  required: 'none; every request must name a version',
};

function changeText(c: VersionChangeModel): Inline {
  const target = (field: string | undefined) => code(`${c.resource ?? NOT_SHOWN}.${field ?? NOT_SHOWN}`);
  let text: Span[];
  if (c.kind === 'rename_field') text = ['renamed ', target(c.from), ' to ', code(c.to ?? NOT_SHOWN)];
  else if (c.kind === 'add_field') text = ['added ', target(c.field)];
  else if (c.kind === 'remove_field') text = ['removed ', target(c.field)];
  else return [c.description ?? NOT_SHOWN];
  return c.description !== undefined ? [...text, `: ${c.description}`] : text;
}

/** One field difference as a client of the older version sees it; `write` is the request's action, if any. */
function fieldDifferenceText(d: FieldDifference, version: string, write?: string): Inline {
  if (d.old !== undefined && d.now !== undefined) return [code(d.old), ' for ', code(d.now)];
  if (d.now !== undefined) {
    if (write === 'create' && d.default) return ['no ', code(d.now), ' (its default ', code(jsonText(d.default.value)), ' is stored)'];
    if (write === 'replace') return ['no ', code(d.now), ' (left as stored)'];
    return ['no ', code(d.now)];
  }
  return ['also ', code(d.old ?? NOT_SHOWN), ` (its shape in version ${version} is not shown)`];
}

function sideText(diffs: readonly FieldDifference[], version: string, write?: string): Inline {
  if (diffs.length === 0) return ['same'];
  const byResource = new Map<string, FieldDifference[]>();
  for (const d of diffs) byResource.set(d.resource, [...(byResource.get(d.resource) ?? []), d]);
  const named = byResource.size > 1;
  return joinInline(
    [...byResource].map(([name, list]) => [...(named ? [`${name}: `] : []), ...joinInline(list.map((d) => fieldDifferenceText(d, version, write)))]),
    '; ',
  );
}

/**
 * Per supported version, what its clients see differ from the current version: the fields (renamed, added since,
 * removed since) and the operations whose request body or answer differs, all derived from the declared changes
 * (getVersionDifferences), as the service applies them.
 */
function versionDifferenceBlocks(m: ServiceModel): Block[] {
  const v = m.versioning!;
  const current = v.current;
  if (current === undefined) return [];
  const out: Block[] = [];
  const ops = new Map((m.endpoints?.operations ?? []).map((o) => [o.id, o]));
  for (const s of v.supported) {
    const d = s.version === current ? undefined : getVersionDifferences(m, s.version);
    if (!d) continue;
    out.push(heading(4, `Version ${s.version} against the current version ${current}`));
    if (d.fields.length === 0 && d.other.length === 0) {
      out.push(para(`No field differs: a version ${s.version} request and answer have the current shape.`));
      continue;
    }
    if (d.fields.length > 0) {
      out.push(
        table(
          ['Resource', `Field in version ${s.version}`, `Field in version ${current}`, 'Difference'],
          d.fields.map((f) => [
            [f.resource],
            f.old !== undefined ? [code(f.old)] : ['none'],
            f.now !== undefined ? [code(f.now)] : ['none'],
            [
              f.old !== undefined && f.now !== undefined
                ? 'renamed'
                : f.now !== undefined
                  ? `added after version ${s.version}`
                  : `removed after version ${s.version}`,
            ],
          ]),
        ),
      );
    }
    if (d.operations.length > 0) {
      out.push(para(`Operations whose bodies differ for a version ${s.version} client (the service checks its requests in this shape and answers in it):`));
      out.push(
        table(
          ['Operation', 'Request body', 'Answer'],
          d.operations.map((o) => {
            const op = ops.get(o.operation);
            const rest = o.request.filter((x) => x.now === undefined || !o.unsendable.includes(x.now));
            const request = sideText(rest, s.version, op?.action);
            return [
              [code(o.operation), ...(op ? [' (', code(`${op.method} ${op.path}`), ')'] : [])],
              o.unsendable.length > 0
                ? [
                    'refused: ',
                    ...codes(o.unsendable),
                    ` came after version ${s.version}, is required and has no default`,
                    ...(rest.length > 0 ? ['; ', ...request] : []),
                  ]
                : request,
              sideText(o.response, s.version),
            ];
          }),
        ),
      );
    }
    if (d.other.length > 0) {
      out.push(para(`Also declared for version ${s.version}, as written (not modelled as field changes):`));
      out.push(list(d.other.map((t) => [t])));
    }
  }
  if (out.length === 0) return [];
  return [heading(3, 'What each supported version differs in'), ...out];
}

function versioningBlocks(m: ServiceModel): Block[] {
  const v = m.versioning!;
  const blocks: Block[] = [
    list([
      item('Scheme', v.scheme ?? NOT_SHOWN),
      item('Current version', ...codeOrNotShown(v.current)),
      item('Placement', ...placementText(v.placement)),
      item('Default selection', v.default !== undefined ? DEFAULT_SELECTION[v.default] : NOT_SHOWN),
    ]),
  ];
  if (v.supported.length > 0) {
    blocks.push(heading(3, 'Supported versions'));
    blocks.push(
      table(
        ['Version', 'Changes', 'Deprecated', 'Sunset'],
        v.supported.map((s) => [
          [code(s.version)],
          s.changes.length > 0 ? joinInline(s.changes.map(changeText), '; ') : ['none'],
          [s.deprecated ?? 'no'],
          [s.sunset ?? (s.deprecated !== undefined ? NOT_SHOWN : 'none')],
        ]),
      ),
    );
  }
  blocks.push(...versionDifferenceBlocks(m));
  if (v.compatibility.length > 0) {
    blocks.push(heading(3, 'Compatibility rules'));
    blocks.push(list(v.compatibility.map((c) => [c])));
  }
  return blocks;
}

const PART_BLOCKS: Readonly<Record<PartName, (m: ServiceModel) => Block[]>> = {
  purpose: purposeBlocks,
  resources: resourceBlocks,
  states: stateBlocks,
  endpoints: endpointBlocks,
  authentication: authenticationBlocks,
  events: eventBlocks,
  errors: errorBlocks,
  limits: limitBlocks,
  versioning: versioningBlocks,
};

// ---------------------------------------------------------------------------------------------------
// The document

const PART_LISTING = 'purpose, resources, states, endpoints, authentication, events, errors, limits and versioning';

function introBlocks(m: ServiceModel, report: GapReport): Block[] {
  const name = m.purpose?.name;
  const subject = name === undefined ? 'a service specification' : `the specification of ${/\bservice$/i.test(name) ? name : `the ${name} service`}`;
  const first = `This document covers the nine parts of ${subject}: ${PART_LISTING}.`;
  if (PART_NAMES.every((p) => !m.present[p])) {
    return [para(`${first} No single service interface is defined for any of these parts, so each part below records that gap and states no invented values.`)];
  }
  if (report.shown === PART_NAMES.length) return [para(`${first} Every part is shown.`)];
  const titles = (status: PartGaps['status']) => report.parts.filter((p) => p.status === status).map((p) => p.title);
  const count = report.shown === 0 ? 'None of the nine parts is' : `${report.shown} of the nine parts ${report.shown === 1 ? 'is' : 'are'}`;
  const sentences = [first, `${count} shown in full.`];
  const partly = titles('partly shown');
  const absent = titles(NOT_SHOWN);
  if (partly.length > 0) sentences.push(`Partly shown: ${partly.join(', ')}.`);
  if (absent.length > 0) sentences.push(`Not shown: ${absent.join(', ')}.`);
  sentences.push('Where a part or an item is not shown, the part says so and states no invented value.');
  return [para(sentences.join(' '))];
}

function partBlocks(m: ServiceModel, gaps: PartGaps): Block[] {
  const blocks: Block[] = [heading(2, PART_TITLES[gaps.part])];
  if (gaps.status === NOT_SHOWN) {
    const note = SEED_ABSENT_NOTES[gaps.part];
    blocks.push(para(`${PART_CONTENTS[gaps.part]}: ${NOT_SHOWN}.${note ? ` ${note}` : ''}`));
    return blocks;
  }
  blocks.push(...PART_BLOCKS[gaps.part](m));
  if (gaps.missing.length > 0) {
    blocks.push(heading(3, 'Not shown'));
    blocks.push(list(gaps.missing.map((g) => [formatGapItem(g)])));
  }
  return blocks;
}

/** The nine-part document as blocks, for renderers of any output form. */
export function buildDocument(model: ServiceModel): readonly Block[] {
  const report = getGapReport(model);
  return [heading(1, DOCUMENT_TITLE), ...introBlocks(model, report), ...report.parts.flatMap((p) => partBlocks(model, p))];
}

// ---------------------------------------------------------------------------------------------------
// Markdown output

/** Whitespace (including line breaks) collapsed to single spaces: every block is written on one line. */
const flatten = (text: string): string => text.replace(/\s+/g, ' ');

/** Escapes the characters that would turn text into Markdown or HTML syntax. */
function escapeText(text: string, inCell: boolean): string {
  let out = flatten(text)
    .replace(/[\\`*[\]<]/g, (c) => `\\${c}`)
    // An underscore inside a word is plain text in CommonMark; one at a word's edge could start emphasis.
    .replace(/_/g, (c, at: number, whole: string) => (/[A-Za-z0-9]/.test(whole[at - 1] ?? '') && /[A-Za-z0-9]/.test(whole[at + 1] ?? '') ? c : `\\${c}`));
  if (inCell) out = out.replace(/\|/g, '\\|');
  return out;
}

function codeSpan(text: string, inCell: boolean): string {
  let body = flatten(text);
  if (inCell) body = body.replace(/\|/g, '\\|');
  const longest = Math.max(0, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = body.startsWith('`') || body.endsWith('`') || (body.startsWith(' ') && body.endsWith(' ') && body.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${body}${pad}${fence}`;
}

function inlineMarkdown(content: Inline, inCell = false): string {
  return content
    .map((s) => (typeof s === 'string' ? escapeText(s, inCell) : 'code' in s ? codeSpan(s.code, inCell) : `**${escapeText(s.strong, inCell)}**`))
    .join('');
}

/** A line that starts like a list item, heading or quote would be read as one: escape its first mark. */
function guardLineStart(line: string): string {
  return line.replace(/^(\s*)([#+\-=>]|\d+(?=[.)]))/, (_m, space: string, mark: string) => (/^\d/.test(mark) ? `${space}${mark}\\` : `${space}\\${mark}`));
}

function blockMarkdown(b: Block): string | undefined {
  switch (b.kind) {
    case 'heading':
      return `${'#'.repeat(b.level)} ${escapeText(b.text, false)}`;
    case 'paragraph':
      return guardLineStart(inlineMarkdown(b.content));
    case 'list':
      return b.items.map((i) => `- ${inlineMarkdown(i)}`).join('\n');
    case 'table': {
      const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
      return [
        row(b.head.map((h) => escapeText(h, true))),
        row(b.head.map(() => '---')),
        ...b.rows.map((r) => row(r.map((c) => inlineMarkdown(c, true) || ' '))),
      ].join('\n');
    }
    case 'diagram':
      return undefined;
  }
}

/** The nine-part document as Markdown: the seed's title, order and headings; deterministic. */
export function renderMarkdown(model: ServiceModel): string {
  const parts = buildDocument(model)
    .map(blockMarkdown)
    .filter((s): s is string => s !== undefined);
  return `${parts.join('\n\n')}\n`;
}
