// The names APIs give a list's page values, in one place (docs/import.md, "Lists" and "Response envelopes"): a page
// object's members (import-openapi.ts readPage) and a response envelope's values (import-envelope.ts) read the same
// value by the same names. Each list is a set of names (its order says nothing); where the two readings take a name
// only one of them has, the extra names are listed beside the shared ones, by the reading that takes them.

import { PAGE_FIELDS } from '../model/model-defaults.js';
import type { PageMemberRole } from '../spec/spec-types.js';

/** The number of every object matching the query. */
export const TOTAL_NAMES: readonly string[] = ['total_count', 'totalCount', 'total', 'total_results', 'totalResults', 'total_items', 'totalItems'];

/**
 * A page object's total beside those (Spring's `totalElements`, Django REST Framework's `count`): in an envelope
 * `count` is the objects of this answer (ENVELOPE_COUNT_NAMES).
 */
export const PAGE_OBJECT_TOTAL_NAMES: readonly string[] = [...TOTAL_NAMES, 'totalElements', 'count', 'totalRecords'];

/** An envelope's number of objects in this answer. */
export const ENVELOPE_COUNT_NAMES: readonly string[] = ['count'];

/** A page object's number of objects on this page (Spring's `numberOfElements`): its `count` is a total. */
export const PAGE_OBJECT_COUNT_NAMES: readonly string[] = ['numberOfElements'];

/** The objects before this page. */
export const OFFSET_NAMES: readonly string[] = ['offset'];

/** The page size used. */
export const PAGE_SIZE_NAMES: readonly string[] = ['per_page', 'perPage', 'page_size', 'pageSize'];

/** An envelope's page size beside those (`limit`, the parameter echoed). */
export const ENVELOPE_PAGE_SIZE_NAMES: readonly string[] = ['limit', ...PAGE_SIZE_NAMES];

/** A page object's page size beside those (Spring's and fastapi-pagination's `size`). */
export const PAGE_OBJECT_PAGE_SIZE_NAMES: readonly string[] = ['size', ...PAGE_SIZE_NAMES];

/** The page's number. */
export const PAGE_NUMBER_NAMES: readonly string[] = ['page', 'page_number', 'pageNumber'];

/** A page object's page number beside those (Spring's `number`, Laravel's `current_page`, `page_index`). */
export const PAGE_OBJECT_PAGE_NUMBER_NAMES: readonly string[] = [...PAGE_NUMBER_NAMES, 'number', 'current_page', 'page_index'];

/** The number of pages. */
export const PAGE_COUNT_NAMES: readonly string[] = ['total_pages', 'totalPages', 'pages', 'page_count', 'pageCount', 'number_of_pages', 'numberOfPages'];

/** An envelope's number of pages: the same names. */
export const ENVELOPE_PAGE_COUNT_NAMES: readonly string[] = PAGE_COUNT_NAMES;

/** The next page's cursor (an envelope's `next`; a page's is any string member it holds beside its objects). */
export const NEXT_CURSOR_NAMES: readonly string[] = [PAGE_FIELDS.next, 'nextCursor', 'next', 'continue'];

/** A page's own whole address (JSON:API's `links.self`). */
export const SELF_LINK_NAMES: readonly string[] = ['self', 'self_link', 'selfLink', 'self_url', 'selfUrl'];

/** The first page's whole address. */
export const FIRST_LINK_NAMES: readonly string[] = ['first', 'first_link', 'firstLink', 'first_url', 'firstUrl', 'first_page_url', 'firstPageUrl'];

/** The next page's whole address (Django REST Framework's `next`, Laravel's `next_page_url`). */
export const NEXT_LINK_NAMES: readonly string[] = ['next', 'next_link', 'nextLink', 'next_url', 'nextUrl', 'next_page_url', 'nextPageUrl'];

/** The last page's whole address. */
export const LAST_LINK_NAMES: readonly string[] = ['last', 'last_link', 'lastLink', 'last_url', 'lastUrl', 'last_page_url', 'lastPageUrl'];

/** The previous page's whole address (Django REST Framework's `previous`, Laravel's `prev_page_url`). */
export const PREVIOUS_LINK_NAMES: readonly string[] = [
  'prev',
  'previous',
  'prev_link',
  'previous_link',
  'prevLink',
  'previousLink',
  'prev_url',
  'previous_url',
  'prevUrl',
  'previousUrl',
  'prev_page_url',
  'previous_page_url',
  'prevPageUrl',
  'previousPageUrl',
];

/**
 * A page object's descriptive members by role (paging.members), integers and booleans apart: Spring Data's `Page`
 * (`number`, `size`, `totalPages`, `numberOfElements`, `first`, `last`, `empty`, `pageable.pageNumber`, …) and
 * Laravel's paginator (`current_page`, `last_page`, `per_page`, `from`, `to`). Compared as plain names (toPlainName).
 */
export const PAGE_OBJECT_MEMBER_NAMES: {
  integer: Readonly<Partial<Record<PageMemberRole, readonly string[]>>>;
  boolean: Readonly<Partial<Record<PageMemberRole, readonly string[]>>>;
} = {
  integer: {
    page: PAGE_OBJECT_PAGE_NUMBER_NAMES,
    size: PAGE_OBJECT_PAGE_SIZE_NAMES,
    pages: PAGE_COUNT_NAMES,
    last_page: ['last_page'],
    count: PAGE_OBJECT_COUNT_NAMES,
    offset: OFFSET_NAMES,
    from: ['from'],
    to: ['to'],
  },
  boolean: { first: ['first', 'is_first'], last: ['last', 'is_last'], empty: ['empty', 'is_empty'] },
};

/** A name as a page object's members are compared: in any case, without `_` or `-` (`totalPages` is `total_pages`). */
export function toPlainName(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}
