// Every rule `servicespec diff` can report. docs/diff.md documents each with an example;
// test/diff/diff-catalogue.test.ts keeps the two in step.
import type { PartName } from '../spec/spec-types.js';

/** What a change does to clients written against the old spec. */
export type Impact = 'breaking' | 'needs-review' | 'non-breaking';

export const IMPACTS: readonly Impact[] = ['breaking', 'needs-review', 'non-breaking'];

interface RuleDef {
  /** The part the rule usually belongs to (field rules also appear under endpoints, events and errors). */
  part: PartName;
  impact: Impact;
  /** A template; `{name}` is replaced by the parameter of that name. */
  message: string;
}

const b = 'breaking' as const;
const r = 'needs-review' as const;
const n = 'non-breaking' as const;

export const DIFF_RULES = {
  // purpose
  'purpose-scope-narrowed': { part: 'purpose', impact: r, message: 'the scope no longer includes "{item}"' },
  'purpose-scope-widened': { part: 'purpose', impact: n, message: 'the scope now includes "{item}"' },
  'purpose-name-changed': { part: 'purpose', impact: n, message: 'the service is now called {new} (was {old})' },
  // resources
  'resource-removed': { part: 'resources', impact: b, message: 'resource {subject} was removed' },
  'resource-added': { part: 'resources', impact: n, message: 'resource {subject} was added' },
  'resource-renamed': {
    part: 'resources',
    impact: b,
    message:
      "resource {old} was renamed to {new} (renamedFrom): its objects are kept, but the exports name its schema {new}: code generated from them (a client's types) that names {old} breaks",
  },
  'resource-identifier-changed': { part: 'resources', impact: b, message: '{subject} is now identified by {new} (was {old})' },
  'resource-identifier-source-changed': {
    part: 'resources',
    impact: b,
    message: "{subject}'s identifiers are now given by the {new} (were by the {old}): creates must send one, or must not",
  },
  'answer-members-opened': {
    part: 'resources',
    impact: b,
    message:
      '{subject}: an answer may now carry members the resource does not name (answer_members: open, was named); a client that refuses unknown members breaks',
  },
  'answer-members-named': {
    part: 'resources',
    impact: n,
    message: '{subject}: an answer now carries only the members the resource names (answer_members: named, was open)',
  },
  'resource-parent-changed': {
    part: 'resources',
    impact: b,
    message: '{subject} now belongs to {new} (was {old}): a path under a parent names other objects, and objects stored before name none',
  },
  'resource-owner-changed': { part: 'resources', impact: b, message: '{subject} is now owned through {new} (was {old}): who sees which objects changes' },
  'resource-owner-access-changed': { part: 'resources', impact: b, message: "{subject}: another subject's object is now answered as {new} (was {old})" },
  'field-renamed': { part: 'resources', impact: b, message: '{subject} was renamed to {new}: clients reading or sending {old} break' },
  'field-became-unique': { part: 'resources', impact: b, message: '{subject} is now unique: a request with a value already taken is refused' },
  'unique-key-added': { part: 'resources', impact: b, message: '{subject}: {key} are now unique together: a create or change repeating them is refused' },
  'unique-key-removed': {
    part: 'resources',
    impact: r,
    message: '{subject}: {key} are no longer unique together: an operation binding them may no longer name one object',
  },
  'field-no-longer-unique': { part: 'resources', impact: r, message: '{subject} is no longer unique: clients that look objects up by it may find several' },
  'field-default-changed': {
    part: 'resources',
    impact: r,
    message: '{subject}: the default is now {new} (was {old}); requests that leave it out store another value',
  },
  'field-became-write-once': { part: 'resources', impact: b, message: '{subject} is now write-once: updates and replaces may no longer change it' },
  'field-no-longer-write-once': { part: 'resources', impact: n, message: '{subject} may now be changed after create' },
  'field-became-write-only': { part: 'resources', impact: b, message: '{subject} is now write-only: no answer or event carries it any more' },
  'field-no-longer-write-only': {
    part: 'resources',
    impact: r,
    message: '{subject} is no longer write-only: every answer and event now carries a value clients only sent before',
  },
  'request-field-added': { part: 'resources', impact: n, message: '{subject}: new optional request field' },
  'request-field-added-required': { part: 'resources', impact: b, message: '{subject}: new required request field; requests without it are refused' },
  'request-field-removed': { part: 'resources', impact: b, message: '{subject} is no longer accepted in requests; requests that send it are refused' },
  'request-field-became-read-only': { part: 'resources', impact: b, message: '{subject} became read-only; requests that send it are refused' },
  'request-field-became-writable': { part: 'resources', impact: n, message: '{subject} is no longer read-only: requests may send it' },
  'request-field-became-required': { part: 'resources', impact: b, message: '{subject} is now required in requests; requests without it are refused' },
  'request-field-became-optional': { part: 'resources', impact: n, message: '{subject} is now optional in requests' },
  'request-field-type-changed': { part: 'resources', impact: b, message: '{subject}: request type changed from {old} to {new}' },
  'request-field-type-widened': {
    part: 'resources',
    impact: n,
    message: '{subject}: request type widened from {old} to {new}; every old value is still accepted',
  },
  'request-field-became-nullable': { part: 'resources', impact: n, message: '{subject} may now be null in requests' },
  'request-field-became-not-nullable': { part: 'resources', impact: b, message: '{subject} may no longer be null in requests' },
  'request-field-constraint-tightened': {
    part: 'resources',
    impact: b,
    message: '{subject}: {constraint} tightened from {old} to {new}; values accepted before are refused',
  },
  'request-field-constraint-loosened': { part: 'resources', impact: n, message: '{subject}: {constraint} loosened from {old} to {new}' },
  'request-field-pattern-changed': {
    part: 'resources',
    impact: r,
    message: '{subject}: request pattern changed from {old} to {new}; values accepted before may be refused',
  },
  'request-field-enum-value-removed': { part: 'resources', impact: b, message: '{subject}: value {value} is no longer accepted in requests' },
  'request-field-enum-value-added': { part: 'resources', impact: n, message: '{subject}: value {value} is now accepted in requests' },
  'required-parameter-added': { part: 'endpoints', impact: b, message: '{subject}: new required query parameter; requests without it are refused' },
  'response-field-added': { part: 'resources', impact: n, message: '{subject}: new response field' },
  'response-field-removed': { part: 'resources', impact: b, message: '{subject}: required response field removed; clients reading it break' },
  'response-optional-field-removed': {
    part: 'resources',
    impact: r,
    message: '{subject}: optional response field removed; clients that use it lose the value',
  },
  'response-field-became-optional': { part: 'resources', impact: b, message: '{subject} may now be missing from responses' },
  'response-field-became-required': { part: 'resources', impact: n, message: '{subject} is now always present in responses' },
  'response-field-type-changed': { part: 'resources', impact: b, message: '{subject}: response type changed from {old} to {new}' },
  'response-field-became-nullable': { part: 'resources', impact: b, message: '{subject} may now be null in responses' },
  'response-field-became-not-nullable': { part: 'resources', impact: n, message: '{subject} is no longer null in responses' },
  'response-field-constraint-loosened': {
    part: 'resources',
    impact: r,
    message: '{subject}: {constraint} loosened from {old} to {new}; responses may carry values old clients never saw',
  },
  'response-field-constraint-tightened': { part: 'resources', impact: n, message: '{subject}: {constraint} tightened from {old} to {new} in responses' },
  'response-field-enum-value-added': { part: 'resources', impact: r, message: '{subject}: responses may now carry {value}; strict clients may reject it' },
  'union-variant-removed': {
    part: 'resources',
    impact: b,
    message: '{subject}: variant {value} was removed; values of that shape are no longer accepted or sent',
  },
  'request-union-variant-added': {
    part: 'resources',
    impact: b,
    message: '{subject}: variant {value} was added to a union clients send; a client that builds the union from its variants is out of date',
  },
  'response-union-variant-added': { part: 'resources', impact: n, message: '{subject}: responses may now carry variant {value}' },
  'union-variant-tag-changed': { part: 'resources', impact: b, message: '{subject}: variant {value} is now tagged {new} (was {old})' },
  'union-discriminator-changed': { part: 'resources', impact: b, message: '{subject}: the union is now told apart by {new} (was {old})' },
  'response-field-enum-value-removed': { part: 'resources', impact: n, message: '{subject}: responses no longer carry {value}' },
  'resource-variant-removed': {
    part: 'resources',
    impact: b,
    message: '{subject}: variant {value} was removed; objects of that shape are no longer created or answered',
  },
  'resource-variant-added': {
    part: 'resources',
    impact: r,
    message: '{subject}: variant {value} was added; answers may now hold objects of a shape a client telling them apart by their tag does not know',
  },
  'resource-variant-tag-changed': { part: 'resources', impact: b, message: '{subject}: variant {value} is now tagged {new} (was {old})' },
  'resource-discriminator-changed': { part: 'resources', impact: b, message: '{subject}: objects are now told apart by {new} (was {old})' },
  // states
  'state-machine-removed': { part: 'states', impact: b, message: '{subject} no longer has a state machine' },
  'state-machine-added': { part: 'states', impact: n, message: '{subject} now has a state machine' },
  'state-field-changed': { part: 'states', impact: b, message: '{subject}: the state is now kept in {new} (was {old})' },
  'initial-state-changed': { part: 'states', impact: b, message: '{subject}: new objects now start in {new} (was {old})' },
  'state-removed': { part: 'states', impact: b, message: 'state {subject} was removed' },
  'state-added': { part: 'states', impact: r, message: 'state {subject} was added; clients that switch on the state meet a value they do not know' },
  'state-became-terminal': { part: 'states', impact: b, message: 'state {subject} is now terminal' },
  'state-no-longer-terminal': { part: 'states', impact: r, message: 'state {subject} is no longer terminal: objects in it may change again' },
  'transition-removed': { part: 'states', impact: b, message: 'transition {subject} was removed' },
  'transition-added': { part: 'states', impact: n, message: 'transition {subject} was added' },
  'transition-from-narrowed': { part: 'states', impact: b, message: 'transition {subject} no longer starts from {value}' },
  'transition-from-widened': { part: 'states', impact: n, message: 'transition {subject} now also starts from {value}' },
  'transition-target-changed': { part: 'states', impact: b, message: 'transition {subject} now ends in {new} (was {old})' },
  'transition-requires-added': { part: 'states', impact: b, message: 'transition {subject} now requires {value}' },
  'transition-requires-removed': { part: 'states', impact: n, message: 'transition {subject} no longer requires {value}' },
  'transition-emits-changed': { part: 'states', impact: b, message: 'transition {subject} now emits {new} (was {old})' },
  'transition-emits-added': { part: 'states', impact: n, message: 'transition {subject} now emits {new}' },
  // endpoints
  'operation-removed': { part: 'endpoints', impact: b, message: 'operation {subject} was removed' },
  'deprecated-operation-removed': { part: 'endpoints', impact: r, message: 'operation {subject} was removed; it was deprecated' },
  'operation-added': { part: 'endpoints', impact: n, message: 'operation {subject} was added' },
  'operation-id-changed': { part: 'endpoints', impact: r, message: 'operation {old} is now called {new}; generated clients change' },
  'operation-method-changed': { part: 'endpoints', impact: b, message: 'operation {subject}: method is now {new} (was {old})' },
  'operation-path-changed': { part: 'endpoints', impact: b, message: 'operation {subject}: path is now {new} (was {old})' },
  'path-parameter-renamed': { part: 'endpoints', impact: n, message: 'operation {subject}: path parameters renamed ({old} → {new}); the URLs are the same' },
  'operation-action-changed': { part: 'endpoints', impact: b, message: 'operation {subject}: action is now {new} (was {old})' },
  'operation-resource-changed': { part: 'endpoints', impact: b, message: 'operation {subject} now acts on {new} (was {old})' },
  'operation-transition-changed': { part: 'endpoints', impact: b, message: 'operation {subject} now performs {new} (was {old})' },
  'success-status-changed': { part: 'endpoints', impact: b, message: 'operation {subject}: success status is now {new} (was {old})' },
  'filter-removed': { part: 'endpoints', impact: b, message: 'operation {subject}: filter {value} was removed; requests using it are refused' },
  'filter-added': { part: 'endpoints', impact: n, message: 'operation {subject}: new filter {value}' },
  'filter-became-required': {
    part: 'endpoints',
    impact: b,
    message: 'operation {subject}: filter {value} is now required (required_filters); requests without it are refused',
  },
  'filter-became-optional': { part: 'endpoints', impact: n, message: 'operation {subject}: filter {value} is now optional' },
  'unknown-fields-refused': {
    part: 'endpoints',
    impact: b,
    message: 'operation {subject}: a request member it does not name is now refused (unknown_fields: refuse, was ignore); requests that send one are refused',
  },
  'unknown-fields-ignored': {
    part: 'endpoints',
    impact: n,
    message: 'operation {subject}: a request member it does not name is now accepted and dropped (unknown_fields: ignore, was refuse)',
  },
  'etag-removed': {
    part: 'resources',
    impact: b,
    message:
      '{subject}: answers no longer carry an ETag, nor are If-Match and If-None-Match honoured (etag removed); a client sending If-Match to change only what it read no longer is',
  },
  'etag-added': {
    part: 'resources',
    impact: n,
    message: '{subject}: answers carry an ETag, reads honour If-None-Match and changes If-Match (etag: true)',
  },
  'if-match-required-added': {
    part: 'endpoints',
    impact: b,
    message: 'operation {subject}: a request without If-Match is now refused (if_match: required); clients that send none break',
  },
  'if-match-required-removed': {
    part: 'endpoints',
    impact: n,
    message: 'operation {subject}: a request without If-Match is no longer refused (if_match: required removed)',
  },
  'upsert-removed': {
    part: 'endpoints',
    impact: b,
    message: 'operation {subject}: a request naming an identifier no object has no longer creates it (upsert removed); it is answered as missing',
  },
  'upsert-added': { part: 'endpoints', impact: n, message: 'operation {subject}: a request naming an identifier no object has now creates it (upsert: true)' },
  'sort-removed': { part: 'endpoints', impact: b, message: 'operation {subject}: sort field {value} was removed' },
  'sort-added': { part: 'endpoints', impact: n, message: 'operation {subject}: new sort field {value}' },
  'sort-param-changed': {
    part: 'endpoints',
    impact: b,
    message: 'operation {subject}: the sort is now read from query parameter {new} (was {old}); a request sorting by the old name is refused',
  },
  'list-paging-changed': {
    part: 'endpoints',
    impact: b,
    message: 'operation {subject}: the list now pages as {new} (was {old}); clients written for the old shape read it wrongly',
  },
  'path-binding-changed': {
    part: 'endpoints',
    impact: b,
    message: 'operation {subject}: its path parameters now name {new} (was {old}); the same URL addresses other objects',
  },
  'envelope-changed': {
    part: 'endpoints',
    impact: b,
    message: 'operation {subject}: answers now come in {new} (was {old}); clients written for the old shape read them wrongly',
  },
  'request-envelope-changed': {
    part: 'endpoints',
    impact: b,
    message: 'operation {subject}: its request body is now sent {new} (was {old}); clients that send the old shape are refused',
  },
  'list-paging-extended': { part: 'endpoints', impact: n, message: 'operation {subject}: the list now gives {value}' },
  'answer-field-removed': {
    part: 'endpoints',
    impact: b,
    message: '{subject} is no longer answered in the list (answer_fields); clients reading it break',
  },
  'answer-field-added': { part: 'endpoints', impact: n, message: '{subject} is now answered in the list (answer_fields)' },
  'callback-removed': {
    part: 'endpoints',
    impact: b,
    message: 'operation {subject}: callback {value} was removed; clients that give its URL no longer receive its events',
  },
  'callback-added': { part: 'endpoints', impact: n, message: 'operation {subject}: new callback {value}' },
  'callback-url-changed': {
    part: 'endpoints',
    impact: b,
    message: 'operation {subject}: callback {value} now reads its URL from {new} (was {old}); clients sending the old field are no longer called back',
  },
  'callback-event-removed': { part: 'endpoints', impact: b, message: 'operation {subject}: callback {value} no longer carries event {kind}' },
  'callback-event-added': {
    part: 'endpoints',
    impact: n,
    message: 'operation {subject}: callback {value} now also carries event {kind}; receivers must ignore kinds they do not know',
  },
  'response-header-removed': {
    part: 'endpoints',
    impact: b,
    message: 'operation {subject}: response header {value} was removed; clients reading it find nothing',
  },
  'response-header-added': { part: 'endpoints', impact: n, message: 'operation {subject}: new response header {value}' },
  'request-media-type-changed': {
    part: 'endpoints',
    impact: b,
    message: 'operation {subject}: the request body is now sent as {new} (was {old}); clients sending the old type are refused',
  },
  'operation-request-changed': { part: 'endpoints', impact: b, message: 'operation {subject}: the request body is now {new} (was {old})' },
  'operation-response-changed': { part: 'endpoints', impact: b, message: 'operation {subject}: the response body is now {new} (was {old})' },
  'delete-response-added': { part: 'endpoints', impact: n, message: 'operation {subject} now answers the {value} it deleted' },
  'delete-response-removed': {
    part: 'endpoints',
    impact: b,
    message: 'operation {subject} no longer answers the {value} it deleted; clients reading it find no body',
  },
  'operation-deprecated': { part: 'endpoints', impact: n, message: 'operation {subject} is now deprecated' },
  'operation-error-added': { part: 'endpoints', impact: r, message: 'operation {subject} may now answer with error {value}' },
  'operation-error-removed': { part: 'endpoints', impact: n, message: 'operation {subject} no longer lists error {value}' },
  'operation-no-longer-idempotent': { part: 'endpoints', impact: b, message: 'operation {subject} no longer replays answers for a repeated Idempotency-Key' },
  'operation-became-idempotent': { part: 'endpoints', impact: n, message: 'operation {subject} now replays answers for a repeated Idempotency-Key' },
  'idempotency-header-changed': { part: 'endpoints', impact: b, message: 'the idempotency key is now read from {new} (was {old})' },
  'idempotency-retention-shortened': {
    part: 'endpoints',
    impact: r,
    message: 'idempotency keys are now kept {new} (was {old}); late retries are no longer recognised',
  },
  'base-url-changed': { part: 'endpoints', impact: b, message: 'the base address is now {new} (was {old})' },
  // authentication
  'scheme-removed': { part: 'authentication', impact: b, message: 'scheme {subject} was removed; its credentials are refused' },
  'scheme-added': { part: 'authentication', impact: n, message: 'scheme {subject} was added' },
  'scheme-type-changed': { part: 'authentication', impact: b, message: 'scheme {subject} is now {new} (was {old})' },
  'scheme-credential-changed': { part: 'authentication', impact: b, message: 'scheme {subject}: {what} is now {new} (was {old})' },
  'token-lifetime-shortened': { part: 'authentication', impact: b, message: 'scheme {subject}: tokens now live {new} (was {old})' },
  'token-lifetime-lengthened': { part: 'authentication', impact: n, message: 'scheme {subject}: tokens now live {new} (was {old})' },
  'algorithm-removed': { part: 'authentication', impact: b, message: 'scheme {subject} no longer accepts tokens signed with {value}' },
  'algorithm-added': { part: 'authentication', impact: n, message: 'scheme {subject} now accepts tokens signed with {value}' },
  'scheme-token-rule-unset': { part: 'authentication', impact: r, message: 'scheme {subject}: {what} is no longer stated (was {old})' },
  'scheme-token-rule-set': { part: 'authentication', impact: r, message: 'scheme {subject}: {what} is now stated: {new} (was not shown)' },
  'scope-removed': { part: 'authentication', impact: r, message: 'scope {subject} is no longer declared; clients asking for it are refused' },
  'scope-added': { part: 'authentication', impact: n, message: 'scope {subject} was added' },
  'default-auth-tightened': { part: 'authentication', impact: b, message: 'the default requirement is now {new} (was {old})' },
  'default-auth-loosened': { part: 'authentication', impact: r, message: 'the default requirement is now {new} (was {old}); check this is meant' },
  'operation-auth-tightened': { part: 'authentication', impact: b, message: 'operation {subject} now requires {new} (was {old})' },
  'operation-auth-loosened': { part: 'authentication', impact: r, message: 'operation {subject} now requires {new} (was {old}); check this is meant' },
  // events
  'event-kind-removed': { part: 'events', impact: b, message: 'event kind {subject} was removed' },
  'event-kind-added': { part: 'events', impact: n, message: 'event kind {subject} was added; consumers must ignore kinds they do not know' },
  'event-payload-changed': { part: 'events', impact: b, message: 'event kind {subject}: the payload is now {new} (was {old})' },
  'event-body-changed': {
    part: 'events',
    impact: b,
    message: 'event kind {subject}: deliveries are now {new} (was {old}); receivers read the payload at another place',
  },
  'event-trigger-removed': { part: 'events', impact: b, message: 'event kind {subject} is no longer sent on {value}' },
  'event-trigger-added': { part: 'events', impact: n, message: 'event kind {subject} is now also sent on {value}' },
  'webhook-signing-changed': {
    part: 'events',
    impact: b,
    message: 'webhook deliveries are now signed {new} (was {old}); receivers verifying signatures break',
  },
  'webhook-retries-reduced': { part: 'events', impact: r, message: 'webhook retries are now {new} (was {old}); a receiver that is down loses events sooner' },
  'webhook-retries-changed': { part: 'events', impact: n, message: 'webhook retries are now {new} (was {old})' },
  'webhook-timeout-shortened': { part: 'events', impact: b, message: 'webhook deliveries now wait {new} (was {old}); slower receivers see failures' },
  'webhook-registration-changed': { part: 'events', impact: b, message: 'webhook registration: {what} is now {new} (was {old})' },
  'event-stream-changed': { part: 'events', impact: b, message: 'the event stream: {what} is now {new} (was {old})' },
  'event-broker-changed': {
    part: 'events',
    impact: b,
    message: 'broker delivery ({subject}): {what} is now {new} (was {old}); consumers bound to the old one stop receiving events',
  },
  'event-broker-added': { part: 'events', impact: n, message: 'events are now also published to {subject} ({what} {new})' },
  // errors
  'error-code-removed': { part: 'errors', impact: b, message: 'error code {subject} was removed' },
  'error-code-added': { part: 'errors', impact: n, message: 'error code {subject} was added' },
  'error-status-changed': { part: 'errors', impact: b, message: 'error code {subject} is now answered with status {new} (was {old})' },
  'error-header-removed': {
    part: 'errors',
    impact: b,
    message: 'error answers of {subject} no longer declare header {value}; clients reading it find nothing',
  },
  'error-header-added': { part: 'errors', impact: n, message: 'error answers of {subject} now declare header {value}' },
  'error-condition-moved': { part: 'errors', impact: b, message: 'condition {subject} is now answered with code {new} (was {old})' },
  'error-condition-undeclared': { part: 'errors', impact: b, message: 'condition {subject} is no longer answered with a declared code (was {old})' },
  'error-condition-declared': { part: 'errors', impact: n, message: 'condition {subject} is now answered with code {new}' },
  'error-body-changed': { part: 'errors', impact: b, message: 'the error body is now {new} (was {old})' },
  'error-members-opened': {
    part: 'errors',
    impact: b,
    message:
      'an error answer may now carry members the error body does not name (answer_members: open, was named); a client that refuses unknown members breaks',
  },
  'error-members-named': {
    part: 'errors',
    impact: n,
    message: 'an error answer now carries only the members the error body names (answer_members: named, was open)',
  },
  // limits
  'rate-limit-lowered': { part: 'limits', impact: b, message: 'rate limit {subject} now allows {new} (was {old})' },
  'rate-limit-raised': { part: 'limits', impact: n, message: 'rate limit {subject} now allows {new} (was {old})' },
  'rate-limit-added': { part: 'limits', impact: r, message: 'new rate limit {subject}: {new}; clients that send more are refused' },
  'rate-limit-removed': { part: 'limits', impact: n, message: 'rate limit {subject} was removed' },
  'rate-limit-changed': { part: 'limits', impact: r, message: 'rate limit {subject}: {what} is now {new} (was {old})' },
  'body-size-lowered': { part: 'limits', impact: b, message: 'request bodies may now be {new} at most (was {old})' },
  'header-size-lowered': { part: 'limits', impact: b, message: 'request headers may now be {new} at most (was {old})' },
  'nesting-depth-lowered': { part: 'limits', impact: b, message: 'request bodies may now nest {new} levels at most (was {old})' },
  'page-size-max-lowered': { part: 'limits', impact: b, message: 'a page may now hold {new} items at most (was {old})' },
  'page-size-default-changed': { part: 'limits', impact: r, message: 'a page now holds {new} items by default (was {old})' },
  'page-over-max-changed': { part: 'limits', impact: r, message: 'a page size over the maximum is now answered by {new} (was {old})' },
  'timeout-shortened': { part: 'limits', impact: b, message: 'requests now time out after {new} (was {old})' },
  'concurrency-lowered': { part: 'limits', impact: r, message: 'the service now handles {new} requests at once (was {old})' },
  'failed-auth-bound-tightened': {
    part: 'limits',
    impact: r,
    message: 'failed credentials are now refused past {new} (was {old}); a client retrying a bad credential is refused sooner',
  },
  'failed-auth-bound-loosened': {
    part: 'limits',
    impact: r,
    message: 'failed credentials are now refused past {new} (was {old}); more guesses are allowed, check this is meant',
  },
  'limit-raised': { part: 'limits', impact: n, message: '{subject} is now {new} (was {old})' },
  'limit-set': { part: 'limits', impact: r, message: '{subject} is now stated: {new} (was not shown)' },
  'limit-unset': { part: 'limits', impact: r, message: '{subject} is no longer stated (was {old})' },
  // versioning
  'version-dropped-before-sunset': { part: 'versioning', impact: b, message: 'version {subject} is no longer served, before its sunset ({old})' },
  'version-dropped': { part: 'versioning', impact: n, message: 'version {subject} is no longer served; its sunset ({old}) has passed' },
  'version-added': { part: 'versioning', impact: n, message: 'version {subject} is now served' },
  'version-sunset-moved-earlier': { part: 'versioning', impact: b, message: 'version {subject}: sunset is now {new} (was {old})' },
  'version-deprecated': { part: 'versioning', impact: n, message: 'version {subject} is now deprecated ({new})' },
  'version-placement-changed': { part: 'versioning', impact: b, message: 'requests now name the version in {new} (was {old})' },
  'version-default-changed': { part: 'versioning', impact: b, message: 'a request naming no version now gets {new} (was {old})' },
  'version-scheme-changed': { part: 'versioning', impact: b, message: 'version identifiers are now {new} (was {old})' },
  'current-version-advanced': { part: 'versioning', impact: n, message: 'the current version is now {new} (was {old})' },
  'current-version-not-advanced': {
    part: 'versioning',
    impact: b,
    message: 'the current version is still {old} although this diff holds {count} breaking change(s)',
  },
  'undeclared-breaking-change': { part: 'versioning', impact: b, message: '{subject}: breaking, and version {version} declares no change that explains it' },
  'declared-change-not-shown': { part: 'versioning', impact: r, message: 'version {version} declares {change}, which the two specs do not show' },
} as const satisfies Record<string, RuleDef>;

export type DiffRuleCode = keyof typeof DIFF_RULES;

export function isDiffRuleCode(code: string): code is DiffRuleCode {
  return Object.prototype.hasOwnProperty.call(DIFF_RULES, code);
}

/** Where a change is, in one of the two specs. */
export interface ChangeLocation {
  file: string;
  pointer: string;
  line?: number;
  column?: number;
}

export interface Change {
  code: DiffRuleCode;
  impact: Impact;
  part: PartName;
  /** What changed, as named in the spec: `Book.language`, `createBook`, `Loan.lend`. */
  subject: string;
  /** One line: what changed and why it has this impact. */
  reason: string;
  old?: ChangeLocation;
  new?: ChangeLocation;
}

export type ChangeParams = Record<string, string | number | undefined>;

export function formatReason(code: DiffRuleCode, params: ChangeParams): string {
  return DIFF_RULES[code].message.replace(/\{([a-zA-Z]+)\}/g, (m, k: string) => {
    const v = params[k];
    return v === undefined ? m : String(v);
  });
}
