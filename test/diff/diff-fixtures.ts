// One fixture pair per rule: the library example (old) and an edit of it (new), or two edits.
import type { DiffRuleCode } from '../../src/diff/diff-catalogue.js';
import type { Doc, Edit } from './diff-helpers.js';

export interface Row {
  code: DiffRuleCode;
  new: Edit;
  old?: Edit;
  /** Other codes the same edit is expected to report (current-version-not-advanced is always allowed). */
  also?: DiffRuleCode[];
  today?: string;
}

const book = (d: Doc) => d.resources.Book.fields;
const ops = (d: Doc) => d.endpoints.operations;
// A list of books answering a summary (answer_fields): every field but the free-form metadata.
const summary = (d: Doc) => {
  ops(d).listBooks.answer_fields = ['id', 'isbn', 'title', 'authors', 'language', 'published_on', 'pages', 'cover_url', 'copies', 'added_at'];
};
const loan = (d: Doc) => d.states.Loan;
const tag = (d: Doc) => {
  d.resources.Tag = { fields: { id: { type: 'uuid', readOnly: true }, label: { type: 'string' }, phase: { type: 'state' } } };
  d.states.Tag = { field: 'phase', initial: 'draft', states: { draft: {}, live: { terminal: true } }, transitions: { publish: { from: 'draft', to: 'live' } } };
};
const search = (d: Doc) => {
  ops(d).searchBooks = {
    method: 'POST',
    path: '/search',
    action: 'custom',
    handler: 'searchBooks',
    auth: 'none',
    request: { fields: { q: { type: 'integer', minimum: 1 }, near: { type: 'string', nullable: true }, lang: { type: 'enum', values: ['en'] } } },
    response: { fields: { count: { type: 'integer' }, shelf: { type: 'enum', values: ['a', 'b'] }, next: { type: 'date', nullable: true } } },
  };
};
// A Member whose identifier the client gives: a replace of one may then create it (upsert).
const clientMember = (d: Doc) => {
  d.resources.Member.identifier_source = 'client';
  delete d.resources.Member.fields.id.readOnly;
};
const errorBody = (d: Doc) => {
  d.errors.body = { fields: { code: { type: 'string' }, message: { type: 'string' } } };
};
const callback = (d: Doc) => {
  d.resources.Loan.fields.callback_url = { type: 'uri', optional: true };
  d.resources.Loan.fields.notify_url = { type: 'uri', optional: true };
  ops(d).createLoan.callbacks = { onReturn: { url: 'callback_url', events: ['loan.overdue', 'loan.returned'] } };
};
const jwt = (d: Doc) => {
  d.authentication.schemes.jwt = {
    type: 'bearer',
    token: 'jwt',
    algorithms: ['RS256', 'ES256'],
    issuer: 'https://id.example.org',
    audience: 'library',
    lifetime: '1h',
  };
};
const format = (d: Doc) => {
  book(d).format = {
    type: 'union',
    optional: true,
    discriminator: 'kind',
    variants: { print: { fields: { pages: { type: 'integer' } } }, ebook: { tag: 'e', fields: { bytes: { type: 'integer' } } } },
  };
};
const pick = (d: Doc) => {
  ops(d).pickBook = {
    method: 'GET',
    path: '/pick',
    action: 'custom',
    handler: 'pickBook',
    auth: 'none',
    response: { discriminator: 'type', variants: { Found: { fields: { title: { type: 'string' } } }, None: { fields: { reason: { type: 'string' } } } } },
  };
};
// A resource of several shapes (docs/format.md): an Item is a Map or a Disc, told apart by `kind`; listed and made.
const shelf = (d: Doc) => {
  d.resources.Item = {
    plural: 'items',
    discriminator: 'kind',
    fields: { id: { type: 'uuid', readOnly: true }, label: { type: 'string' } },
    variants: { Map: { fields: { scale: { type: 'integer' } } }, Disc: { tag: 'disc', fields: { minutes: { type: 'integer' } } } },
  };
  ops(d).createItem = { method: 'POST', path: '/items', action: 'create', resource: 'Item', auth: 'none' };
  ops(d).listItems = { method: 'GET', path: '/items', action: 'list', resource: 'Item', auth: 'none' };
};
const item = (d: Doc) => d.resources.Item;
const both =
  (...edits: Edit[]): Edit =>
  (d) =>
    edits.forEach((e) => e(d));

export const ROWS: Row[] = [
  // purpose
  { code: 'purpose-scope-narrowed', new: (d) => d.purpose.scope.includes.pop() },
  { code: 'purpose-scope-widened', new: (d) => d.purpose.scope.includes.push('Gift cards.') },
  { code: 'purpose-name-changed', new: (d) => (d.purpose.name = 'City Library') },
  // resources
  { code: 'resource-removed', old: tag, new: () => undefined, also: ['state-machine-removed'] },
  { code: 'resource-added', new: tag, also: ['state-machine-added'] },
  {
    code: 'resource-renamed',
    old: tag,
    new: (d) => {
      tag(d);
      d.resources.Label = { renamedFrom: 'Tag', ...d.resources.Tag };
      d.states.Label = d.states.Tag;
      delete d.resources.Tag;
      delete d.states.Tag;
    },
  },
  {
    code: 'resource-identifier-changed',
    old: tag,
    new: both(tag, (d) => {
      d.resources.Tag.fields.id.optional = true;
      d.resources.Tag.fields.key = { type: 'uuid', readOnly: true };
      d.resources.Tag.identifier = 'key';
    }),
  },
  {
    code: 'resource-identifier-source-changed',
    old: tag,
    new: both(tag, (d) => {
      d.resources.Tag.identifier_source = 'client';
      d.resources.Tag.fields.id.readOnly = false;
    }),
  },
  { code: 'answer-members-opened', new: (d) => (d.resources.Loan.answer_members = 'open') },
  { code: 'etag-removed', old: (d) => (d.resources.Book.etag = true), new: () => undefined },
  { code: 'etag-added', new: (d) => (d.resources.Book.etag = true) },
  { code: 'answer-members-named', old: (d) => (d.resources.Loan.answer_members = 'open'), new: () => undefined },
  { code: 'resource-owner-changed', old: tag, new: both(tag, (d) => (d.resources.Tag.owner = 'label')) },
  { code: 'resource-parent-changed', old: tag, new: both(tag, (d) => (d.resources.Tag.parent = 'Book')) },
  { code: 'resource-owner-access-changed', new: (d) => (d.resources.Loan.owner_access = 'forbidden') },
  {
    code: 'field-renamed',
    new: (d) => {
      book(d).cover = book(d).cover_url;
      delete book(d).cover_url;
    },
  },
  { code: 'unique-key-added', new: (d) => (d.resources.Book.unique_keys = [['title', 'isbn']]) },
  { code: 'unique-key-removed', old: (d) => (d.resources.Book.unique_keys = [['title', 'isbn']]), new: () => undefined },
  { code: 'field-became-unique', new: (d) => (book(d).title.unique = true) },
  { code: 'field-no-longer-unique', new: (d) => delete book(d).isbn.unique },
  { code: 'field-default-changed', new: (d) => (d.resources.Member.fields.active.default = false) },
  { code: 'field-became-write-once', new: (d) => (book(d).title.writeOnce = true) },
  { code: 'field-no-longer-write-once', new: (d) => delete d.resources.Member.fields.card_number.writeOnce },
  { code: 'field-became-write-only', new: (d) => (book(d).cover_url.writeOnly = true) },
  { code: 'field-no-longer-write-only', old: (d) => (book(d).cover_url.writeOnly = true), new: () => undefined },
  { code: 'request-field-added', new: (d) => (book(d).subtitle = { type: 'string', optional: true }) },
  { code: 'request-field-added-required', new: (d) => (book(d).subtitle = { type: 'string' }) },
  { code: 'request-field-removed', new: (d) => delete book(d).cover_url },
  { code: 'request-field-became-read-only', new: (d) => (book(d).pages.readOnly = true) },
  { code: 'request-field-became-writable', old: (d) => (book(d).pages.readOnly = true), new: () => undefined },
  { code: 'request-field-became-required', new: (d) => delete book(d).pages.optional },
  { code: 'request-field-became-optional', new: (d) => (book(d).copies.default = 0) },
  { code: 'request-field-type-changed', new: (d) => (book(d).pages = { type: 'string', optional: true }) },
  { code: 'request-field-type-widened', old: search, new: both(search, (d) => (ops(d).searchBooks.request.fields.q.type = 'number')) },
  { code: 'request-field-became-nullable', old: search, new: both(search, (d) => (ops(d).searchBooks.request.fields.q.nullable = true)) },
  { code: 'request-field-became-not-nullable', old: (d) => (book(d).pages.nullable = true), new: () => undefined },
  { code: 'request-field-constraint-tightened', new: (d) => (book(d).title.maxLength = 200) },
  { code: 'request-field-constraint-loosened', old: search, new: both(search, (d) => delete ops(d).searchBooks.request.fields.q.minimum) },
  { code: 'request-field-pattern-changed', new: (d) => (book(d).isbn.pattern = '^97[89]-?[0-9]{10}$') },
  { code: 'request-field-enum-value-removed', new: (d) => (book(d).language.values = ['en', 'nl', 'de']) },
  { code: 'request-field-enum-value-added', old: search, new: both(search, (d) => ops(d).searchBooks.request.fields.lang.values.push('nl')) },
  {
    code: 'required-parameter-added',
    old: (d) => (ops(d).bookAvailability.request = { fields: { id: { type: 'uuid' } } }),
    new: (d) => (ops(d).bookAvailability.request = { fields: { id: { type: 'uuid' }, at: { type: 'date' } } }),
  },
  { code: 'response-field-added', new: (d) => (book(d).changed_at = { type: 'datetime', readOnly: true, generated: 'update_time' }) },
  {
    code: 'response-field-removed',
    new: (d) => {
      delete book(d).added_at;
      ops(d).listBooks.sort = ['title', 'published_on'];
    },
    also: ['sort-removed'],
  },
  { code: 'response-optional-field-removed', old: (d) => (book(d).note = { type: 'string', readOnly: true, optional: true }), new: () => undefined },
  { code: 'response-field-became-optional', new: (d) => (book(d).copies.optional = true) },
  {
    code: 'response-field-became-required',
    old: (d) => (book(d).changed_at = { type: 'datetime', readOnly: true, generated: 'update_time', optional: true }),
    new: (d) => (book(d).changed_at = { type: 'datetime', readOnly: true, generated: 'update_time' }),
  },
  { code: 'response-field-type-changed', new: (d) => (book(d).added_at.type = 'date') },
  { code: 'response-field-became-nullable', new: (d) => (book(d).added_at.nullable = true) },
  { code: 'response-field-became-not-nullable', old: search, new: both(search, (d) => delete ops(d).searchBooks.response.fields.next.nullable) },
  { code: 'response-field-constraint-loosened', new: (d) => (book(d).title.maxLength = 400) },
  { code: 'response-field-constraint-tightened', old: search, new: both(search, (d) => (ops(d).searchBooks.response.fields.count.maximum = 100)) },
  { code: 'response-field-enum-value-added', new: (d) => book(d).language.values.push('es') },
  { code: 'union-variant-removed', old: format, new: both(format, (d) => delete book(d).format.variants.ebook) },
  {
    code: 'request-union-variant-added',
    old: format,
    new: both(format, (d) => (book(d).format.variants.audio = { fields: { minutes: { type: 'integer' } } })),
  },
  {
    code: 'response-union-variant-added',
    old: pick,
    new: both(pick, (d) => (ops(d).pickBook.response.variants.Maybe = { fields: { hint: { type: 'string' } } })),
  },
  { code: 'union-variant-tag-changed', old: format, new: both(format, (d) => (book(d).format.variants.ebook.tag = 'digital')) },
  { code: 'union-discriminator-changed', old: format, new: both(format, (d) => (book(d).format.discriminator = 'medium')) },
  { code: 'resource-variant-removed', old: shelf, new: both(shelf, (d) => delete item(d).variants.Disc), also: ['request-field-enum-value-removed'] },
  {
    code: 'resource-variant-added',
    old: shelf,
    new: both(shelf, (d) => (item(d).variants.Globe = { fields: { radius: { type: 'number' } } })),
    also: ['response-field-enum-value-added'],
  },
  {
    code: 'resource-variant-tag-changed',
    old: shelf,
    new: both(shelf, (d) => (item(d).variants.Disc.tag = 'cd')),
    also: ['request-field-enum-value-removed', 'response-field-enum-value-added'],
  },
  { code: 'resource-discriminator-changed', old: shelf, new: both(shelf, (d) => (item(d).discriminator = 'medium')), also: ['field-renamed'] },
  { code: 'response-field-enum-value-removed', old: search, new: both(search, (d) => (ops(d).searchBooks.response.fields.shelf.values = ['a'])) },
  // states
  {
    code: 'state-machine-removed',
    old: tag,
    new: both(tag, (d) => {
      delete d.states.Tag;
      d.resources.Tag.fields.phase = { type: 'string' };
    }),
  },
  {
    code: 'state-machine-added',
    old: both(tag, (d) => {
      delete d.states.Tag;
      d.resources.Tag.fields.phase = { type: 'string' };
    }),
    new: tag,
  },
  {
    code: 'state-field-changed',
    old: tag,
    new: both(tag, (d) => {
      d.resources.Tag.fields = { id: { type: 'uuid', readOnly: true }, label: { type: 'string' }, stage: { type: 'state' } };
      d.states.Tag.field = 'stage';
    }),
    also: ['field-renamed'],
  },
  { code: 'initial-state-changed', new: (d) => (loan(d).initial = 'active') },
  { code: 'state-removed', old: (d) => (loan(d).states.archived = { terminal: true }), new: () => undefined },
  { code: 'state-added', new: (d) => (loan(d).states.archived = { terminal: true }) },
  { code: 'state-became-terminal', old: (d) => (loan(d).states.archived = {}), new: (d) => (loan(d).states.archived = { terminal: true }) },
  { code: 'state-no-longer-terminal', old: (d) => (loan(d).states.archived = { terminal: true }), new: (d) => (loan(d).states.archived = {}) },
  { code: 'transition-removed', old: (d) => (loan(d).transitions.reopen = { from: 'active', to: 'requested' }), new: () => undefined },
  { code: 'transition-added', new: (d) => (loan(d).transitions.reopen = { from: 'active', to: 'requested' }) },
  { code: 'transition-from-narrowed', new: (d) => (loan(d).transitions.return.from = ['active']) },
  { code: 'transition-from-widened', new: (d) => (loan(d).transitions.declare_lost.from = ['overdue', 'active']) },
  { code: 'transition-target-changed', new: (d) => (loan(d).transitions.mark_overdue.to = 'lost') },
  { code: 'transition-requires-added', new: (d) => (loan(d).transitions.mark_overdue.requires = ['due_date']) },
  { code: 'transition-requires-removed', new: (d) => delete loan(d).transitions.lend.requires },
  {
    code: 'transition-emits-changed',
    new: (d) => (loan(d).transitions.mark_overdue.emits = 'loan.lost'),
    also: ['event-trigger-removed', 'event-trigger-added'],
  },
  { code: 'transition-emits-added', old: (d) => delete loan(d).transitions.mark_overdue.emits, new: () => undefined, also: ['event-trigger-added'] },
  // endpoints
  { code: 'operation-removed', new: (d) => delete ops(d).deleteBook },
  { code: 'deprecated-operation-removed', old: (d) => (ops(d).deleteBook.deprecated = true), new: (d) => delete ops(d).deleteBook },
  { code: 'operation-added', new: (d) => (ops(d).getBookAgain = { ...ops(d).getBook, path: '/books/{id}/again' }) },
  {
    code: 'operation-id-changed',
    new: (d) => {
      ops(d).readBook = ops(d).getBook;
      delete ops(d).getBook;
    },
  },
  { code: 'operation-method-changed', new: (d) => (ops(d).lendLoan.method = 'PUT') },
  { code: 'operation-path-changed', new: (d) => (ops(d).lendLoan.path = '/loans/{id}/lending') },
  { code: 'path-parameter-renamed', new: (d) => (ops(d).getBook.path = '/books/{bookId}') },
  {
    code: 'operation-action-changed',
    new: (d) => {
      Object.assign(ops(d).markLoanOverdue, { action: 'custom', handler: 'markOverdue', request: { fields: { id: { type: 'uuid' } } } });
      delete ops(d).markLoanOverdue.transition;
      delete ops(d).markLoanOverdue.resource;
    },
    also: ['operation-request-changed'],
  },
  // createBook loses its Location: no read of Book is left to name the new object by.
  {
    code: 'operation-resource-changed',
    new: (d) => (ops(d).getBook.resource = 'Member'),
    also: ['response-header-removed'],
  },
  { code: 'operation-transition-changed', new: (d) => (ops(d).returnLoan.transition = 'declare_lost') },
  { code: 'success-status-changed', new: (d) => (ops(d).createBook.status = 200) },
  { code: 'filter-removed', new: (d) => (ops(d).listBooks.filter = ['language']) },
  { code: 'filter-added', new: (d) => ops(d).listBooks.filter.push('title') },
  { code: 'filter-became-required', new: (d) => (ops(d).listBooks.required_filters = ['language']) },
  { code: 'filter-became-optional', old: (d) => (ops(d).listBooks.required_filters = ['language']), new: (d) => delete ops(d).listBooks.required_filters },
  { code: 'unknown-fields-refused', old: (d) => (ops(d).createBook.unknown_fields = 'ignore'), new: (d) => (ops(d).createBook.unknown_fields = 'refuse') },
  {
    code: 'if-match-required-added',
    old: (d) => (d.resources.Book.etag = true),
    new: (d) => ((d.resources.Book.etag = true), (ops(d).updateBook.if_match = 'required')),
  },
  {
    code: 'if-match-required-removed',
    old: (d) => ((d.resources.Book.etag = true), (ops(d).updateBook.if_match = 'required')),
    new: (d) => (d.resources.Book.etag = true),
  },
  { code: 'upsert-removed', old: (d) => (clientMember(d), (ops(d).replaceMember.upsert = true)), new: clientMember },
  { code: 'upsert-added', old: clientMember, new: (d) => (clientMember(d), (ops(d).replaceMember.upsert = true)) },
  { code: 'unknown-fields-ignored', new: (d) => (ops(d).createBook.unknown_fields = 'ignore') },
  { code: 'request-media-type-changed', new: (d) => (ops(d).updateBook.request_media_type = 'application/merge-patch+json') },
  { code: 'sort-removed', new: (d) => (ops(d).listBooks.sort = ['published_on', 'added_at']) },
  { code: 'sort-added', new: (d) => ops(d).listBooks.sort.push('pages') },
  { code: 'sort-param-changed', new: (d) => (ops(d).listBooks.sort_param = 'ordering') },
  { code: 'list-paging-changed', new: (d) => (ops(d).listBooks.paging = { style: 'offset', body: 'array' }) },
  { code: 'path-binding-changed', new: (d) => (ops(d).getBook.bind = { id: 'isbn' }) },
  { code: 'request-envelope-changed', new: (d) => (ops(d).createBook.request_envelope = { data: 'book' }) },
  { code: 'list-paging-extended', new: (d) => (ops(d).listBooks.paging = { link: true }) },
  { code: 'answer-field-removed', new: summary },
  { code: 'answer-field-added', old: summary, new: (d) => (summary(d), ops(d).listBooks.answer_fields.push('metadata')) },
  {
    code: 'envelope-changed',
    new: (d) => (ops(d).getBook.envelope = { data: 'data', fields: { request_id: { type: 'string' } }, request_id: 'request_id' }),
  },
  { code: 'callback-removed', old: callback, new: (d) => (callback(d), delete ops(d).createLoan.callbacks) },
  { code: 'callback-added', new: callback, also: ['request-field-added'] },
  { code: 'callback-url-changed', old: callback, new: (d) => (callback(d), (ops(d).createLoan.callbacks.onReturn.url = 'notify_url')) },
  { code: 'callback-event-removed', old: callback, new: (d) => (callback(d), (ops(d).createLoan.callbacks.onReturn.events = ['loan.returned'])) },
  { code: 'callback-event-added', old: callback, new: (d) => (callback(d), ops(d).createLoan.callbacks.onReturn.events.push('loan.lost')) },
  {
    code: 'response-header-removed',
    old: (d) => (ops(d).bookAvailability.response_headers = { 'X-Copies': { type: 'integer', optional: true } }),
    new: () => undefined,
  },
  { code: 'response-header-added', new: (d) => (ops(d).bookAvailability.response_headers = { 'X-Copies': { type: 'integer' } }) },
  { code: 'operation-request-changed', new: (d) => (ops(d).bookAvailability.request = { resource: 'Book' }) },
  { code: 'operation-response-changed', new: (d) => (ops(d).bookAvailability.response = { resource: 'Book' }) },
  {
    code: 'delete-response-added',
    new: (d) => Object.assign(ops(d).deleteBook, { response: { resource: 'Book' }, status: 200 }),
    also: ['success-status-changed'],
  },
  {
    code: 'delete-response-removed',
    old: (d) => Object.assign(ops(d).deleteBook, { response: { resource: 'Book' }, status: 200 }),
    new: () => undefined,
    also: ['success-status-changed'],
  },
  { code: 'operation-deprecated', new: (d) => (ops(d).getBook.deprecated = true) },
  { code: 'operation-error-added', new: (d) => ops(d).getBook.errors.push('bad_request') },
  { code: 'operation-error-removed', new: (d) => (ops(d).createBook.errors = ['validation_failed']) },
  { code: 'operation-no-longer-idempotent', new: (d) => (ops(d).createMember.idempotent = false) },
  { code: 'operation-became-idempotent', old: (d) => (ops(d).createBook.idempotent = false), new: () => undefined },
  { code: 'idempotency-header-changed', new: (d) => (d.endpoints.idempotency.header = 'X-Idempotency') },
  { code: 'idempotency-retention-shortened', new: (d) => (d.endpoints.idempotency.retention = '24h') },
  { code: 'base-url-changed', new: (d) => (d.endpoints.base_url = 'https://library.example.org/api') },
  // authentication
  { code: 'scheme-removed', old: (d) => (d.authentication.schemes.partner = { type: 'api_key', in: 'header', name: 'X-Partner' }), new: () => undefined },
  { code: 'scheme-added', new: (d) => (d.authentication.schemes.partner = { type: 'api_key', in: 'header', name: 'X-Partner' }) },
  { code: 'scheme-type-changed', old: jwt, new: both(jwt, (d) => (d.authentication.schemes.jwt = { type: 'basic' })) },
  { code: 'scheme-credential-changed', new: (d) => (d.authentication.schemes.app.name = 'X-Key') },
  { code: 'token-lifetime-shortened', old: jwt, new: both(jwt, (d) => (d.authentication.schemes.jwt.lifetime = '15m')) },
  { code: 'token-lifetime-lengthened', old: jwt, new: both(jwt, (d) => (d.authentication.schemes.jwt.lifetime = '2h')) },
  { code: 'algorithm-removed', old: jwt, new: both(jwt, (d) => (d.authentication.schemes.jwt.algorithms = ['RS256'])) },
  { code: 'algorithm-added', old: jwt, new: both(jwt, (d) => d.authentication.schemes.jwt.algorithms.push('EdDSA')) },
  { code: 'scheme-token-rule-unset', old: jwt, new: both(jwt, (d) => delete d.authentication.schemes.jwt.algorithms) },
  { code: 'scheme-token-rule-set', old: both(jwt, (d) => delete d.authentication.schemes.jwt.lifetime), new: jwt },
  { code: 'scope-removed', old: (d) => (d.authentication.scopes['extra:read'] = 'Extra.'), new: () => undefined },
  { code: 'scope-added', new: (d) => (d.authentication.scopes['extra:read'] = 'Extra.') },
  { code: 'default-auth-tightened', new: (d) => d.authentication.default.scopes.push('members:read') },
  { code: 'default-auth-loosened', new: (d) => (d.authentication.default.scopes = []) },
  { code: 'operation-auth-tightened', new: (d) => (ops(d).getBook.auth = { scopes: ['catalog:read'] }) },
  { code: 'operation-auth-loosened', new: (d) => (ops(d).createBook.auth = 'none') },
  // events
  { code: 'event-kind-removed', new: (d) => delete d.events.kinds['book.removed'] },
  {
    code: 'event-kind-added',
    new: (d) => (d.events.kinds['book.checked'] = { description: 'A book was checked.', on: ['update'], payload: { resource: 'Book' } }),
  },
  {
    code: 'event-payload-changed',
    new: (d) => {
      d.events.kinds['book.removed'].payload = { fields: { id: { type: 'uuid' } } };
      d.events.kinds['book.removed'].resource = 'Book';
    },
  },
  { code: 'event-body-changed', new: (d) => (d.events.kinds['book.removed'].body = 'raw') },
  { code: 'event-trigger-removed', old: (d) => (d.events.kinds['book.added'].on = ['create', 'update']), new: () => undefined },
  { code: 'event-trigger-added', new: (d) => (d.events.kinds['book.added'].on = ['create', 'update']) },
  { code: 'webhook-signing-changed', new: (d) => delete d.events.delivery.webhook.signing },
  { code: 'webhook-retries-reduced', new: (d) => (d.events.delivery.webhook.retries = ['10s', '1m']) },
  { code: 'webhook-retries-changed', new: (d) => (d.events.delivery.webhook.retries = ['10s', '1m', '5m', '30m', '2h', '24h']) },
  { code: 'webhook-timeout-shortened', new: (d) => (d.events.delivery.webhook.timeout = '2s') },
  { code: 'webhook-registration-changed', new: (d) => (d.events.delivery.webhook.path = '/hooks') },
  { code: 'event-stream-changed', new: (d) => (d.events.delivery.stream.path = '/stream') },
  {
    code: 'event-broker-changed',
    old: (d) => (d.events.delivery.broker = { nats: { subject: 'library.events' } }),
    new: (d) => (d.events.delivery.broker = { nats: { subject: 'lib.events' } }),
  },
  { code: 'event-broker-added', new: (d) => (d.events.delivery.broker = { nats: { subject: 'library.events' } }) },
  // errors
  {
    code: 'error-code-removed',
    new: (d) => {
      delete d.errors.codes.in_use;
    },
    also: ['error-condition-undeclared'],
  },
  { code: 'error-code-added', new: (d) => (d.errors.codes.teapot = { status: 418, title: 'Tea' }) },
  { code: 'error-status-changed', new: (d) => (d.errors.codes.not_found.status = 410) },
  {
    code: 'error-condition-moved',
    new: (d) => {
      d.errors.codes.not_found.when = ['missing_resource'];
      d.errors.codes.bad_request.when.push('route_not_found');
    },
  },
  { code: 'error-condition-undeclared', new: (d) => (d.errors.codes.not_found.when = ['missing_resource']) },
  { code: 'error-condition-declared', old: (d) => (d.errors.codes.not_found.when = ['missing_resource']), new: () => undefined },
  {
    code: 'error-header-removed',
    old: (d) => (d.errors.codes.not_found.headers = { 'X-Error-Kind': { type: 'string', default: 'missing' } }),
    new: () => undefined,
  },
  { code: 'error-header-added', new: (d) => (d.errors.codes.not_found.headers = { 'X-Error-Kind': { type: 'string', default: 'missing' } }) },
  { code: 'error-body-changed', new: (d) => (d.errors.body = 'problem') },
  { code: 'error-members-opened', old: errorBody, new: both(errorBody, (d) => (d.errors.body.answer_members = 'open')) },
  { code: 'error-members-named', old: both(errorBody, (d) => (d.errors.body.answer_members = 'open')), new: errorBody },
  // limits
  { code: 'rate-limit-lowered', new: (d) => (d.limits.rate[0].requests = 30) },
  { code: 'rate-limit-raised', new: (d) => (d.limits.rate[0].requests = 120) },
  { code: 'rate-limit-added', new: (d) => d.limits.rate.push({ name: 'burst', requests: 5, per: '1s', by: 'address' }) },
  { code: 'rate-limit-removed', new: (d) => d.limits.rate.splice(1, 1) },
  { code: 'rate-limit-changed', new: (d) => (d.limits.rate[0].by = 'address') },
  { code: 'body-size-lowered', new: (d) => (d.limits.body_size = 16384) },
  { code: 'header-size-lowered', new: (d) => (d.limits.header_size = '4KiB') },
  { code: 'nesting-depth-lowered', new: (d) => (d.limits.nesting_depth = 4) },
  { code: 'page-size-max-lowered', new: (d) => (d.limits.page_size.max = 40) },
  { code: 'page-size-default-changed', new: (d) => (d.limits.page_size.default = 20) },
  { code: 'page-over-max-changed', new: (d) => (d.limits.page_size.over_max = 'reject') },
  { code: 'timeout-shortened', new: (d) => (d.limits.timeout = '5s') },
  { code: 'concurrency-lowered', new: (d) => (d.limits.concurrency = 32) },
  { code: 'failed-auth-bound-tightened', new: (d) => (d.limits.failed_auth.attempts = 10) },
  { code: 'failed-auth-bound-loosened', new: (d) => (d.limits.failed_auth = { attempts: 2000, per: '1h' }) },
  { code: 'limit-raised', new: (d) => (d.limits.timeout = '20s') },
  { code: 'limit-set', old: (d) => delete d.limits.concurrency, new: () => undefined },
  { code: 'limit-unset', new: (d) => delete d.limits.concurrency },
  // versioning
  { code: 'version-dropped-before-sunset', new: (d) => (d.versioning.supported = []), today: '2026-06-01' },
  { code: 'version-dropped', new: (d) => (d.versioning.supported = []), today: '2027-01-01' },
  { code: 'version-added', old: (d) => (d.versioning.supported = []), new: () => undefined },
  { code: 'version-sunset-moved-earlier', new: (d) => (d.versioning.supported[0].sunset = '2026-10-01') },
  { code: 'version-deprecated', old: (d) => delete d.versioning.supported[0].deprecated, new: () => undefined },
  { code: 'version-placement-changed', new: (d) => (d.versioning.placement = { header: 'Library-Version' }) },
  { code: 'version-default-changed', new: (d) => (d.versioning.default = 'current') },
  {
    code: 'version-scheme-changed',
    new: (d) => Object.assign(d.versioning, { scheme: 'semver', current: '2.0.0', supported: [{ ...d.versioning.supported[0], version: '1.0.0' }] }),
    also: ['current-version-advanced', 'version-dropped-before-sunset', 'version-added'],
  },
  {
    code: 'current-version-advanced',
    new: (d) => {
      d.versioning.current = 3;
      d.versioning.supported.unshift({ version: 2 });
    },
  },
  { code: 'current-version-not-advanced', new: (d) => (book(d).subtitle = { type: 'string' }), also: ['request-field-added-required'] },
  {
    code: 'undeclared-breaking-change',
    new: (d) => {
      book(d).subtitle = { type: 'string' };
      d.versioning.current = 3;
      d.versioning.supported.unshift({ version: 2 });
    },
    also: ['request-field-added-required', 'current-version-advanced'],
  },
  {
    code: 'declared-change-not-shown',
    new: (d) => {
      d.versioning.current = 3;
      d.versioning.supported.unshift({ version: 2, changes: [{ add_field: { resource: 'Book', field: 'pages' } }] });
    },
    also: ['current-version-advanced'],
  },
];
