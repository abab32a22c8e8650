// Every diagnostic code the toolkit can emit. docs/diagnostics.md documents each one;
// test/diagnostics/diagnostics-catalogue.test.ts keeps the two in step.

export type Severity = 'error' | 'warning' | 'info';

export interface SourcePosition {
  line: number;
  column: number;
}

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  /** JSON pointer into the spec document, when the diagnostic is about a place in it. */
  pointer?: string;
}

interface MessageDef {
  severity: Severity;
  /** A template; `{name}` is replaced by the parameter of that name. */
  message: string;
}

export const DIAGNOSTICS = {
  // load
  'file-not-found': { severity: 'error', message: 'no such file: {path}' },
  'file-is-directory': { severity: 'error', message: '{path} is a directory, not a spec file' },
  'file-unreadable': { severity: 'error', message: 'cannot read {path}: {reason}' },
  'file-too-large': { severity: 'error', message: 'the spec is {size} bytes; the limit is {limit} bytes' },
  'invalid-utf8': { severity: 'error', message: 'the file is not valid UTF-8' },
  'empty-document': { severity: 'error', message: 'the file is empty; a spec needs at least `servicespec: 1`' },
  'yaml-syntax': { severity: 'error', message: 'YAML syntax error ({yamlCode}): {detail}' },
  'duplicate-key': { severity: 'error', message: 'duplicate key {key}' },
  'multiple-documents': { severity: 'error', message: 'the file holds more than one YAML document; a spec is one document' },
  'nesting-too-deep': { severity: 'error', message: 'the document nests deeper than {limit} levels' },
  'not-a-mapping': { severity: 'error', message: 'the top level must be a mapping of the spec parts, not {found}' },
  // structure (JSON Schema)
  'openapi-document': { severity: 'error', message: '{file} is {kind} document ({key}: {version}), not a servicespec; {advice}' },
  'missing-format-version': { severity: 'error', message: 'the key `servicespec` (the format version) is required' },
  'unsupported-format-version': { severity: 'error', message: 'format version {found} is not supported; this tool reads version 1' },
  'unknown-key': { severity: 'error', message: 'unknown key `{key}` at {where}{suggestion}' },
  'missing-key': { severity: 'error', message: '`{key}` is required at {where}' },
  'wrong-type': { severity: 'error', message: '{where} must be {expected}' },
  'invalid-value': { severity: 'error', message: '{where}: {detail}' },
  // semantic rules
  'unknown-resource': { severity: 'error', message: '{where} names resource `{name}`, which is not declared{suggestion}' },
  'unknown-field': { severity: 'error', message: '{where} names field `{name}`, which resource {resource} does not have{suggestion}' },
  'unknown-transition': { severity: 'error', message: '{where} names transition `{name}`, which the {resource} state machine does not declare{suggestion}' },
  'unknown-state': { severity: 'error', message: '{where} names state `{name}`, which the {resource} state machine does not declare{suggestion}' },
  'unknown-event': { severity: 'error', message: '{where} emits event `{name}`, which is not declared under events.kinds{suggestion}' },
  'unknown-scope': { severity: 'error', message: '{where} requires scope `{name}`, which is not declared under authentication.scopes{suggestion}' },
  'unknown-scheme': { severity: 'error', message: '{where} names scheme `{name}`, which is not declared under authentication.schemes{suggestion}' },
  'unknown-error-code': { severity: 'error', message: '{where} names error code `{name}`, which is not declared under errors.codes{suggestion}' },
  'unknown-operation': { severity: 'error', message: '{where} names operation `{name}`, which is not declared{suggestion}' },
  'unreachable-state': { severity: 'warning', message: 'state `{state}` of {resource} cannot be reached from the initial state `{initial}`' },
  'dead-end-state': { severity: 'warning', message: 'state `{state}` of {resource} is not terminal but has no transition out of it' },
  'terminal-state-has-exit': { severity: 'error', message: 'state `{state}` of {resource} is terminal, but transition `{transition}` leaves it' },
  'missing-initial-state': { severity: 'error', message: 'the {resource} state machine declares transitions but no initial state' },
  'terminal-conflict': { severity: 'error', message: 'state `{state}` of {resource} is listed as terminal but declared `terminal: false`' },
  'state-field-mismatch': { severity: 'error', message: '{detail}' },
  'removed-state-still-declared': {
    severity: 'error',
    message: 'states.{resource}.removed_states names `{name}`, which the {resource} state machine still has: only a state it no longer has can be removed',
  },
  'field-renamed-from-twice': {
    severity: 'error',
    message: 'fields {first} and {second} of {resource} are both renamedFrom `{name}`: the stored values of {name} can move to one field only',
  },
  'resource-renamed-from-twice': {
    severity: 'error',
    message: 'resources {first} and {second} are both renamedFrom `{name}`: the stored objects of {name} can move to one resource only',
  },
  'missing-state-machine': {
    severity: 'error',
    message: 'field {resource}.{field} has type state, but no state machine for {resource} is declared under states',
  },
  'reserved-path': {
    severity: 'error',
    message: '{what} uses the path {path}, under {prefix}, which the service keeps for its own routes (health, documents, console)',
  },
  'duplicate-route': { severity: 'error', message: 'operations `{first}` and `{second}` both answer {method} {path}' },
  'ambiguous-route': { severity: 'warning', message: 'operations `{first}` and `{second}` have paths {path1} and {path2} that match the same requests' },
  'unbound-path-parameter': { severity: 'error', message: 'operation `{operation}`: {detail}' },
  'path-binding-unknown-param': {
    severity: 'error',
    message: 'operation `{operation}`: `bind` names {{param}}, which is not a parameter of its path{suggestion}',
  },
  'path-binding-field-invalid': { severity: 'error', message: 'operation `{operation}`: path parameter {{param}} {detail}' },
  'path-binding-not-unique': {
    severity: 'error',
    message: 'operation `{operation}` ({action}) binds {fields}, which can name several objects: it must bind the identifier or a unique field (here: {keys})',
  },
  'parent-unknown': { severity: 'error', message: 'resource `{resource}` names parent `{parent}`, which is no resource{suggestion}' },
  'parent-cycle': { severity: 'error', message: 'resource `{resource}`: its parents go round ({chain})' },
  'parent-invalid': { severity: 'error', message: 'resource `{resource}`: parent `{parent}` {detail}' },
  'parent-binding-not-unique': {
    severity: 'error',
    message:
      'operation `{operation}`: path parameter {{param}} names {parent}.{field}, which is neither the identifier of {parent} nor unique, so it can name several parents',
  },
  'parent-binding-without-parent': {
    severity: 'error',
    message: 'operation `{operation}`: path parameter {{param}} names a field of {parent}, which is not above resource `{resource}`: {declared}',
  },
  'parent-binding-twice': {
    severity: 'error',
    message: 'operation `{operation}`: path parameter {{param}} names {parent} again, which {{first}} names already: one parameter names the parent',
  },
  'parent-binding-gap': {
    severity: 'error',
    message:
      'operation `{operation}`: path parameter {{param}} names {parent}, above the {missing} of resource `{resource}`, but no parameter names the {missing}: a {child} is found only under its own {missing}',
  },
  'parent-binding-missing': {
    severity: 'error',
    message:
      'operation `{operation}` creates a `{resource}`, which belongs to a `{parent}`, but binds no path parameter to a field of it (`{parent}.<field>` in `bind`)',
  },
  'parent-address-unfilled': {
    severity: 'warning',
    message:
      'operation `{operation}` answers a {resource}, whose address (the path of read `{read}`) names its {parent} by `{field}`, which its path does not give: it answers {lost}. Bind the same `{field}`{remedy}',
  },
  'missing-path-parameter': { severity: 'error', message: 'operation `{operation}` ({action}) needs the identifier in its path, e.g. `{example}`' },
  'invalid-path': { severity: 'error', message: 'operation `{operation}`: path `{path}` {detail}' },
  'action-needs-resource': { severity: 'error', message: 'operation `{operation}` has action {action}, which needs `resource`' },
  'action-needs-transition': { severity: 'error', message: 'operation `{operation}` has action transition, which needs `transition`' },
  'transition-without-machine': { severity: 'error', message: 'operation `{operation}` names a transition, but {resource} has no state machine' },
  'method-action-mismatch': { severity: 'warning', message: 'operation `{operation}`: action {action} is usually {expected}, not {method}' },
  'custom-needs-shape': { severity: 'warning', message: 'custom operation `{operation}` declares no {which} shape' },
  'custom-needs-handler': { severity: 'error', message: 'custom operation `{operation}` names no handler' },
  'request-form-invalid': { severity: 'error', message: 'operation `{operation}`: {detail}' },
  'request-media-type-invalid': { severity: 'error', message: 'operation `{operation}`: {detail}' },
  'param-type-invalid': { severity: 'error', message: '{where}: a parameter cannot have type {type}; it is sent as text, so its type is one of {types}' },
  'param-duplicate': {
    severity: 'error',
    message: 'operation `{operation}`: headers `{first}` and `{second}` are the same header (names are compared without regard to case)',
  },
  'param-reserved': {
    severity: 'error',
    message: 'operation `{operation}`: {in} `{name}` is read by the service itself ({reason}); it cannot be a parameter of the operation',
  },
  'response-header-reserved': { severity: 'error', message: 'operation `{operation}`: response header `{name}` is {reason}; the spec cannot declare it' },
  'response-header-unproducible': {
    severity: 'error',
    message:
      'operation `{operation}`: response header `{name}` is required, but the built-in {action} action cannot set it; give it a `default` the service sends, or mark it optional',
  },
  'error-header-invalid': { severity: 'error', message: '{owner}: header `{name}` {reason}' },
  'response-header-default-invalid': {
    severity: 'error',
    message:
      'operation `{operation}`: response header `{name}` has a `default` no header can carry (a control character such as a line break, or a character past U+00FF)',
  },
  'wire-name-clash': { severity: 'error', message: '{place} `{name}` is both {first} and {second}: one request cannot carry both' },
  'required-filter-unknown': {
    severity: 'error',
    message: 'operation `{operation}`: required filter `{field}` is not one of its filters; add it to `filter`, or leave it out of `required_filters`',
  },
  'filter-type-invalid': {
    severity: 'error',
    message: 'operation `{operation}`: filter `{field}` is a field of type {type}, which a query parameter cannot match; filter on a field of another type',
  },
  'callback-action-invalid': {
    severity: 'error',
    message:
      'operation `{operation}`: callback `{callback}`: callbacks are served on create operations only (they carry events about the object it creates), not on {action}',
  },
  'example-invalid': {
    severity: 'warning',
    message: 'operation `{operation}`: the {which} example `{name}` does not match the shape the spec gives it: {detail}',
  },
  'callback-url-invalid': { severity: 'error', message: 'operation `{operation}`: callback `{callback}`: `url` {detail}' },
  'callback-event-unknown': {
    severity: 'error',
    message: 'operation `{operation}`: callback `{callback}` names event `{kind}`, which is not declared under events.kinds{suggestion}',
  },
  'callback-event-unmatched': {
    severity: 'error',
    message: 'operation `{operation}`: callback `{callback}`: event `{kind}` cannot be matched to the {resource} the operation creates: {reason}',
  },
  'callback-event-never': {
    severity: 'warning',
    message:
      'operation `{operation}`: callback `{callback}`: event `{kind}` is emitted only when a {resource} is created, before the callback is subscribed, so it never reaches the callback',
  },
  'paging-contradiction': { severity: 'error', message: 'operation `{operation}`: paging: {detail}' },
  'paging-param-invalid': { severity: 'error', message: 'operation `{operation}`: paging parameter `{role}` (`{name}`): {detail}' },
  'request-field-invalid': { severity: 'error', message: 'operation `{operation}`: request_fields names `{name}`: {detail}' },
  'request-fields-bound-parent': {
    severity: 'error',
    message:
      "operation `{operation}`: request_fields leaves out `{field}`, which holds `{bound}` the path gives: list `{field}` (the path's value is written into it)",
  },
  'answer-field-invalid': { severity: 'error', message: 'operation `{operation}`: answer_fields names `{name}`: {detail}' },
  'answer-fields-empty': {
    severity: 'error',
    message:
      'operation `{operation}`: answer_fields lists no field: each object of the list would be `{}`; list the fields it answers, or leave answer_fields out (every field)',
  },
  'answer-fields-identifier': {
    severity: 'error',
    message:
      "operation `{operation}`: answer_fields leaves out `{field}`, {resource}'s identifier, but the list is paged by style after: a client asks the next page by the last object's identifier",
  },
  'answer-fields-variants': {
    severity: 'error',
    message:
      'operation `{operation}`: answer_fields on {resource}, a resource of several shapes: which fields of which variant each object carries is not said',
  },
  'delete-response-invalid': { severity: 'error', message: 'operation `{operation}`: a delete answers the object it deleted or nothing: {detail}' },
  'misplaced-option': { severity: 'warning', message: 'operation `{operation}`: `{option}` has no effect on action {action}' },
  'upsert-needs-client-identifier': {
    severity: 'error',
    message: "operation `{operation}`: `upsert: true` creates {resource} under the path's identifier, but {resource} has no `identifier_source: client`",
  },
  'if-match-needs-etag': {
    severity: 'error',
    message: 'operation `{operation}`: `if_match: {value}` asks for If-Match, but {resource} has no `etag: true`, so it answers no ETag to match',
  },
  'event-kind-unseen': { severity: 'warning', message: 'event `{name}` is delivered only by the stream, and no stream reader can ever see it: {reason}' },
  'broker-placeholder-unknown': {
    severity: 'error',
    message: '{where}: `{{placeholder}}` is not a placeholder; a broker template may use {kind}, {resource} and {id}',
  },
  'broker-placeholder-unfilled': { severity: 'error', message: '{where}: `{{placeholder}}` cannot be filled for event `{kind}`: {reason}' },
  'broker-subject-invalid': {
    severity: 'error',
    message: 'events.delivery.broker.nats.subject: the subject of event `{kind}`, `{subject}`, is not one NATS can publish on: {reason}',
  },
  'broker-stream-name-invalid': { severity: 'error', message: 'events.delivery.broker.nats.stream: `{name}` is not a stream name NATS accepts: {reason}' },
  'broker-exchange-invalid': {
    severity: 'error',
    message: 'events.delivery.broker.amqp.exchange: `{name}` is not an exchange the events can be published to: {reason}',
  },
  'broker-routing-key-invalid': {
    severity: 'error',
    message: 'events.delivery.broker.amqp.routing_key: the routing key of event `{kind}`, `{key}`, is not one RabbitMQ routes by: {reason}',
  },
  'undeclared-event-emission': { severity: 'warning', message: 'event `{name}` is declared but nothing emits it (no `on` and no transition `emits` it)' },
  'event-payload-unknown': { severity: 'warning', message: 'event `{name}` declares no payload' },
  'event-trigger-without-resource': {
    severity: 'error',
    message: 'event `{name}` is emitted on {trigger}, but names no resource (neither `resource` nor a payload resource)',
  },
  'event-union-payload-triggered': {
    severity: 'error',
    message:
      'event `{name}` is emitted by {trigger}, which sends the changed object as the payload, but its payload is a union: no variant is that object, so every such change would fail',
  },
  'undeclared-condition': {
    severity: 'warning',
    message: 'the service can produce condition `{condition}` ({because}), but no error code declares it under errors.codes.*.when',
  },
  'duplicate-condition': { severity: 'error', message: 'condition `{condition}` is declared by both `{first}` and `{second}`' },
  'error-status-not-error': { severity: 'error', message: 'error code `{name}` has status {status}, which is not an error status (400–599)' },
  'error-body-missing-field': { severity: 'warning', message: 'the declared error body has no field `{field}`; {detail}' },
  'error-body-field-unknown': { severity: 'error', message: 'errors.body.{role} names `{name}`, which is not a field of the error body{suggestion}' },
  'error-body-field-type': { severity: 'error', message: 'error body field `{field}` carries {role} but has type {type}: {detail}' },
  'error-body-field-unfilled': {
    severity: 'warning',
    message: 'error body field `{field}` is required, but the runtime writes nothing there: every error answer would lack it',
  },
  'error-body-media-type': {
    severity: 'error',
    message: 'errors.body.media_type `{mediaType}` is not a JSON media type (application/json or application/…+json)',
  },
  'envelope-field-unknown': { severity: 'error', message: 'envelope: {role} names `{name}`, which is not a field of the envelope{suggestion}' },
  'envelope-field-type': { severity: 'error', message: 'envelope field `{field}` carries {role} but has type {type}: {detail}' },
  'envelope-field-clash': { severity: 'error', message: 'envelope field `{field}`: {detail}' },
  'envelope-field-unfilled': {
    severity: 'error',
    message: 'envelope field `{field}` is required, but no value fills it in the answers of operation `{operation}`{detail}',
  },
  'page-size-default-above-max': { severity: 'error', message: 'the default page size ({default}) is above the maximum page size ({max}){where}' },
  'invalid-pattern': { severity: 'error', message: '{where}: `{pattern}` is not a valid regular expression ({reason})' },
  'invalid-constraint-range': { severity: 'error', message: '{where}: {low} ({lowValue}) is above {high} ({highValue})' },
  'constraint-type-mismatch': { severity: 'warning', message: '{where}: `{constraint}` has no effect on a field of type {type}' },
  'source-unused': { severity: 'warning', message: '{where}: `source: service` has no effect on a field {detail}' },
  'optional-in-requests-unused': { severity: 'warning', message: '{where}: `optionalInRequests` has no effect on a field {detail}' },
  'nullable-answers-unused': { severity: 'warning', message: '{where}: `nullable: answers` says no more than `nullable: true` on a field {detail}' },
  'required-in-requests-unused': { severity: 'warning', message: '{where}: `requiredInRequests` has no effect on a field {detail}' },
  'enum-needs-values': { severity: 'error', message: '{where} has type enum but declares no `values`' },
  'ref-needs-target': { severity: 'error', message: '{where} has type ref but names no resource in `to`' },
  'array-needs-items': { severity: 'error', message: '{where} has type {type} but declares no `items`' },
  'union-needs-variants': { severity: 'error', message: '{where} is a union but declares no `variants`' },
  'union-shape-mixed': { severity: 'error', message: '{where}: `variants` make the body a union and cannot be combined with `{key}`' },
  'shape-unknown': { severity: 'error', message: 'shape `{name}` is not declared under `shapes`{suggestion}' },
  'shape-cycle': { severity: 'error', message: 'shape `{name}` contains itself ({chain}): written out it would never end' },
  'shape-conflict': { severity: 'error', message: '{where} names a `shape` and has `{key}` of its own: the shape gives it' },
  'shape-mismatch': { severity: 'error', message: 'shape `{name}` has {has}, which {where} cannot take' },
  'shape-invalid': { severity: 'error', message: 'shape `{name}` {why}' },
  'shape-unused': { severity: 'warning', message: 'shape `{name}` is declared but nothing uses it' },
  'union-tag-duplicate': {
    severity: 'error',
    message: '{where}: variants `{first}` and `{second}` have the same tag `{tag}`, so a value cannot say which it is',
  },
  'union-tag-without-discriminator': {
    severity: 'error',
    message: '{where}: variant `{variant}` has a `tag` but the union names no `discriminator` to hold it',
  },
  'union-tag-field': {
    severity: 'error',
    message: '{where}: variant `{variant}` declares the field `{field}`, which is the discriminator (the union adds it to every variant)',
  },
  'union-indistinguishable': {
    // A warning: the union is OpenAPI's oneOf (a value matching two variants is refused), so the spec works; the
    // values both variants admit are what was probably not meant (an imported document's own oneOf says the same).
    severity: 'warning',
    message:
      '{where}: an untagged union whose variants `{first}` and `{second}` cannot be told apart ({detail}); add a `discriminator`, or give one a required field the other does not have',
  },
  'resource-variants-untagged': {
    severity: 'error',
    message: 'resource `{resource}` has `variants` but no `discriminator`: an object must say which variant it is (its tag)',
  },
  'resource-variants-empty': { severity: 'error', message: 'resource `{resource}` has a `discriminator` but declares no `variants`' },
  'resource-discriminator-field': {
    severity: 'error',
    message: "resource `{resource}`: the discriminator `{field}` is declared as a field{where}; the resource holds it itself (an enum of the variants' tags)",
  },
  'resource-variant-tag-duplicate': {
    severity: 'error',
    message: 'resource `{resource}`: variants `{first}` and `{second}` have the same tag `{tag}`, so an object cannot say which it is',
  },
  'resource-variant-field-shared': {
    severity: 'error',
    message: 'resource `{resource}`: variant `{variant}` declares `{field}`, which is a field every variant shares',
  },
  'resource-variant-field-clash': {
    severity: 'error',
    message: 'resource `{resource}`: variants `{first}` and `{second}` both declare `{field}`, differently ({detail}); one table column holds it for both',
  },
  'resource-variant-field-unsupported': {
    severity: 'error',
    message: "resource `{resource}`: variant `{variant}`'s field `{field}` is {why}; only a shared field may be",
  },
  'name-style': {
    severity: 'warning',
    message: "{where}: {what} name `{name}` is not {style}, the format's naming style; it is kept as written (it is the name on the wire)",
  },
  'name-case-clash': { severity: 'error', message: '{what} `{first}` and `{second}` differ only in case' },
  'value-violates-field': { severity: 'error', message: '{where}: the declared {which} {value} does not satisfy the field ({detail})' },
  'readonly-without-source': {
    severity: 'error',
    message:
      'field {resource}.{field} is read-only and required, but nothing gives it a value (declare `default`, `generated`, `source: service`, make it optional, or set it by a transition `stamp`)',
  },
  'write-only-invalid': { severity: 'error', message: '{where}: a write-only field {detail}' },
  'generated-type-mismatch': { severity: 'error', message: '{where}: `{option}` needs a date or datetime field, not {type}' },
  'generated-address-invalid': { severity: 'error', message: '{where}: `generated: address` {detail}' },
  'identifier-missing': {
    severity: 'error',
    message:
      'resource {resource} declares no identifier field, but an operation addresses one of its objects by its one path parameter: declare an identifier, or `bind` the parameter to a unique field',
  },
  'unique-key-invalid': { severity: 'error', message: 'resource {resource}: unique key field `{path}` {detail}' },
  'identifier-invalid': { severity: 'error', message: 'resource {resource}: identifier field `{field}` {detail}' },
  'owner-without-credential': {
    severity: 'error',
    message: 'operation `{operation}` acts on {resource}, whose objects belong to a subject, but takes no credential',
  },
  'owner-field-invalid': { severity: 'error', message: 'resource {resource}: owner field `{field}` {detail}' },
  'missing-version-placement': { severity: 'error', message: 'versioning declares versions but no placement (header, path, query or media_type)' },
  'version-placement-unused': { severity: 'error', message: 'versioning.placement.path `{path}` must contain `{version}`' },
  'version-media-type-invalid': { severity: 'error', message: 'versioning.placement.media_type `{template}` {problem}' },
  'invalid-version': { severity: 'error', message: '{where}: `{version}` is not a valid {scheme} version' },
  'duplicate-version': { severity: 'error', message: 'version `{version}` is listed more than once' },
  'version-order': { severity: 'warning', message: 'supported version `{version}` is not older than the current version `{current}`' },
  'sunset-before-deprecation': { severity: 'error', message: 'version `{version}`: sunset {sunset} comes before deprecation {deprecated}' },
  'version-change-not-shown': { severity: 'warning', message: 'version `{version}` declares {change}, which the spec does not show: {detail}' },
  'version-field-required': {
    severity: 'warning',
    message: 'version `{version}` clients cannot create {resource}: {field} came after version `{version}`, is required and has no default',
  },
  'version-change-undeclared': {
    severity: 'error',
    message: '{subject}: a breaking change since {since}, which version `{version}` does not declare among its changes',
  },
  'version-not-advanced': {
    severity: 'error',
    message: 'the spec makes {count} breaking change(s) since {since} (such as: {example}) but the current version is still `{version}`',
  },
  'route-conflict': { severity: 'error', message: '{what} path {path} collides with operation `{operation}`' },
  'scheme-incomplete': { severity: 'error', message: 'scheme `{scheme}` ({type}) {detail}' },
  'duplicate-rate-limit': { severity: 'warning', message: 'rate limits {first} and {second} declare the same partition and window' },
  // command line / runtime start
  'output-unwritable': { severity: 'error', message: 'cannot write {path}: {reason}' },
  'model-has-errors': {
    severity: 'error',
    message: '{entry} was given the model of {file}, which has {count} error(s) ({codes}); fix them first (servicespec check {file})',
  },
  'model-unchecked': {
    severity: 'error',
    message: '{entry} was given a model that was not checked: pass what compileSpecFile, compileSpecText or compileSpecBytes returns (or its `checked` model)',
  },
  'weak-rsa-key': { severity: 'error', message: '{source}: key {key} is a {bits}-bit RSA key; RSA keys need at least {minimum} bits' },
  'git-show-failed': { severity: 'error', message: 'cannot read {input} from git: {reason}' },
  'unknown-version': { severity: 'error', message: '{file} does not serve version {version}; it serves {served}' },
  'migrate-spec-invalid': { severity: 'error', message: '{file} has errors; fix them first (servicespec check {file})' },
  'migrate-unreachable': { severity: 'error', message: 'cannot open {url}: {reason}' },
  'migrate-newer-database': {
    severity: 'error',
    message: 'the database was migrated by a newer servicespec (storage format {stored}; this one knows {known}): upgrade servicespec to migrate it',
  },
  'migrate-identifier-changed': { severity: 'error', message: 'the identifier of {table} changed from {from} to {to}; migrate cannot re-key a table' },
  'migrate-renamed-from-many': {
    severity: 'error',
    message: '{target} is renamedFrom {names}, and the database holds each of them: only one can become {target}',
  },
  'migrate-type-unsupported': {
    severity: 'error',
    message: 'field {table}.{column} changed type from {from} to {to}; migrate converts only between integer, number and string',
  },
  'migrate-no-value': {
    severity: 'error',
    message: 'field {table}.{column} is required but has no value in {rows} ({ids}): give it a `default` or keep it optional',
  },
  'migrate-rows-invalid': { severity: 'error', message: 'field {table}.{column}: {rows} would not be valid for the new spec ({why}): {ids}' },
  'migrate-data-loss': { severity: 'error', message: 'the plan loses data ({steps}); nothing was changed: run it again with --allow-data-loss to apply it' },
  'copy-spec-invalid': { severity: 'error', message: '{file} has errors; fix them first (servicespec check {file})' },
  'copy-unreachable': { severity: 'error', message: 'cannot open {url}: {reason}' },
  'copy-same-database': { severity: 'error', message: '--from and --to name the same database ({url})' },
  'copy-newer-database': {
    severity: 'error',
    message: '{url} was migrated by a newer servicespec (storage format {stored}; this one knows {known}): upgrade servicespec to copy it',
  },
  'copy-source-not-migrated': {
    severity: 'error',
    message: '{url} does not hold what the spec describes ({count} pending: {first}); migrate it first: {command}',
  },
  'copy-target-not-empty': { severity: 'error', message: '{url} is not empty ({held}); db copy fills an empty database only, nothing was changed' },
  'copy-failed': { severity: 'error', message: 'the copy into {url} failed and was rolled back, nothing was changed: {reason}' },
  // ---- export / import (src/export, src/import) ---------------------------------------------------------------
  'export-extension': { severity: 'info', message: '{item}: {target} has no native place for it; written to {extension}' },
  'export-not-shown': { severity: 'info', message: '{item} is not shown in the spec; in the {target} document, {consequence}' },
  'export-skipped': { severity: 'warning', message: '{item} is left out of the {target} document: {reason}' },
  'import-not-openapi': { severity: 'error', message: 'cannot import {path}: {detail}' },
  'import-from-swagger2': {
    severity: 'info',
    message:
      'the document is Swagger 2.0; it was converted to OpenAPI 3.0 by {converter} and that is imported (pointers of Swagger 2.0 losses name the original document; the others, the converted one)',
  },
  'import-unresolved-ref': {
    severity: 'error',
    message: 'the $ref `{ref}` at {at} cannot be followed ({reason}); nothing was imported, as what it points to would be left out',
  },
  'import-invalid-openapi': { severity: 'warning', message: 'the document does not validate as OpenAPI ({detail}); importing what can be read' },
  'import-dropped': { severity: 'warning', message: '{item} has no place in a servicespec and is left out: {reason}' },
  'import-renamed': { severity: 'warning', message: '{what} `{from}` is named `{to}` in the spec: {reason}' },
  'import-custom-operation': { severity: 'info', message: 'operation `{operation}` is imported as a custom operation: {reason}' },
  'import-names-kept': {
    severity: 'info',
    message:
      "names not in the format's naming style ({count}: {examples}) are the API's names on the wire: kept as written, with the name-style warning turned off (check: { disable: [name-style] })",
  },
  'import-errors-merged': { severity: 'warning', message: '{item}: merged into {into} ({reason})' },
  'import-approximated': { severity: 'warning', message: '{item} is imported as {as}: {reason}' },
  'import-extension-invalid': { severity: 'warning', message: '{extension} at {where} is not valid ({detail}) and is ignored' },
  'import-output-is-input': { severity: 'error', message: 'the output {output} is the OpenAPI document being imported; nothing was written' },
  'import-result-invalid': { severity: 'error', message: 'the imported spec does not pass check ({count} errors above); nothing was written' },
} as const satisfies Record<string, MessageDef>;

export type DiagnosticCode = keyof typeof DIAGNOSTICS;

export function isDiagnosticCode(code: string): code is DiagnosticCode {
  return Object.prototype.hasOwnProperty.call(DIAGNOSTICS, code);
}

export interface DiagnosticLocation {
  file?: string;
  line?: number;
  column?: number;
  pointer?: string;
}

// Each code's parameters, read off its template by the type checker: creating a diagnostic with a parameter missing,
// misspelled or not in the template does not compile (test/diagnostics/diagnostics-params.test.ts). A `{name}` meant
// literally in a message is passed as itself (`version: '{version}'`), as the replace below would leave it.

/** The characters of a text, as a union. */
type Chars<S extends string> = S extends `${infer C}${infer Rest}` ? C | Chars<Rest> : never;

type WordChar = Chars<'abcdefghijklmnopqrstuvwxyz'> | Chars<'ABCDEFGHIJKLMNOPQRSTUVWXYZ'> | Chars<'0123456789_'>;

/** Whether a text is one or more word characters (`\w+`, what the replace takes for a parameter's name). */
type IsWord<S extends string> = S extends `${infer C}${infer Rest}` ? (C extends WordChar ? (Rest extends '' ? true : IsWord<Rest>) : false) : false;

/** The text after the last `{` (`{{placeholder` → `placeholder`): the name a `{` … `}` closes. */
type AfterLastBrace<S extends string> = S extends `${string}{${infer Rest}` ? AfterLastBrace<Rest> : S;

/** The parameter names of a message template: each `{name}` in it. */
export type TemplateParams<T extends string> = T extends `${string}{${infer Inside}}${infer Rest}`
  ? (IsWord<AfterLastBrace<Inside>> extends true ? AfterLastBrace<Inside> : never) | TemplateParams<Rest>
  : never;

/** The parameters a code's message takes (for a union of codes, every parameter of each). */
export type DiagnosticParams<C extends DiagnosticCode> = { readonly [K in TemplateParams<(typeof DIAGNOSTICS)[C]['message']>]: string | number };

/** The codes whose message takes no parameter. */
export type ParameterlessCode = { [C in DiagnosticCode]: [TemplateParams<(typeof DIAGNOSTICS)[C]['message']>] extends [never] ? C : never }[DiagnosticCode];

export function createDiagnostic<C extends ParameterlessCode>(code: C, params?: DiagnosticParams<C>, location?: DiagnosticLocation): Diagnostic;
export function createDiagnostic<C extends DiagnosticCode>(code: C, params: DiagnosticParams<C>, location?: DiagnosticLocation): Diagnostic;
export function createDiagnostic(code: DiagnosticCode, params: Readonly<Record<string, string | number>> = {}, location: DiagnosticLocation = {}): Diagnostic {
  const def: MessageDef = DIAGNOSTICS[code];
  const message = def.message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
  const d: Diagnostic = { code, severity: def.severity, message };
  if (location.file !== undefined) d.file = location.file;
  if (location.line !== undefined) d.line = location.line;
  if (location.column !== undefined) d.column = location.column;
  if (location.pointer !== undefined) d.pointer = location.pointer;
  return d;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
