import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Command } from 'commander';
import { createDiagnostic } from '../diagnostics/diagnostics-catalogue.js';
import { SCHEMA_PATH } from '../spec/spec-validate.js';
import { action, describeFsError, EXIT, io, printDiagnostics, writeFileAtomic, type ExitCode } from './cli-shared.js';

export const INIT_FILE_NAME = 'service.yaml';

/**
 * The starter spec. Only `servicespec: 1` is live; each of the nine parts is a commented-out skeleton that shows the
 * shape of the part and of its keys. Every value is a placeholder in angle brackets or a list of the words the format
 * accepts: nothing here is a value for the service, so `check` passes and `gaps` reports all nine parts "not shown".
 */
export function initSkeleton(schemaRef: string): string {
  return `# yaml-language-server: $schema=${schemaRef}
#
# A service interface specification: one file, nine parts. Every part is optional, and a part left out is
# reported as "not shown"; nothing is ever filled in for you. Uncomment a part and replace each <placeholder>
# with the service's own value. \`servicespec check ${INIT_FILE_NAME}\` finds mistakes,
# \`servicespec gaps ${INIT_FILE_NAME}\` lists what is still not shown.

servicespec: 1

# 1. What the service does
# purpose:
#   name: <the service's name>
#   summary: <one sentence on what the service does>
#   description: <a longer account of what it does and why>
#   scope:
#     includes: [<something the service does>]
#     excludes: [<something it deliberately does not do>]
#   audience: [<who the service is for>]
#   contact: { name: <person or team>, email: <address>, url: <web page> }

# 2. Resources and their fields
# resources:
#   <ResourceName>:                     # PascalCase
#     description: <what the resource represents>
#     plural: <plural name, used in paths>
#     identifier: <field_name>          # "id" when absent and a field id exists
#     owner: <field_name>               # bound to the authenticated subject, set by the server
#     owner_access: <hidden | forbidden>
#     fields:
#       <field_name>:                   # snake_case
#         type: <string | integer | number | boolean | date | datetime | uuid | email | uri | enum | ref | array | object | state | json>
#         description: <what the field holds>
#         optional: <true | false>
#         nullable: <true | false>
#         readOnly: <true | false>
#         writeOnce: <true | false>
#         writeOnly: <true | false>
#         unique: <true | false>
#         default: <value used when a create request leaves it out>
#         example: <example value>
#         values: [<allowed value>]     # enum
#         to: <ResourceName>            # ref
#         items: { type: <type> }       # array
#         fields: { <field_name>: { type: <type> } }   # object
#         # constraints: minLength, maxLength, pattern, minimum, maximum, exclusiveMinimum, exclusiveMaximum,
#         # multipleOf, minItems, maxItems, uniqueItems

# 3. States and transitions
# states:
#   <ResourceName>:
#     field: <field_name of type state>
#     initial: <state>
#     states:
#       <state>: { description: <what the state means>, terminal: <true | false> }
#     terminal: [<state>]
#     transitions:
#       <transition>:
#         description: <what the transition does>
#         from: <state, or [states]>
#         to: <state>
#         requires: [<field_name the request must carry>]
#         emits: <event.kind>

# 4. Endpoints
# endpoints:
#   base_url: "{base_url}"              # the address is given at deploy time
#   idempotency: { header: <header name>, retention: <duration, e.g. a number and ms|s|m|h|d> }
#   operations:
#     <operationId>:
#       method: <GET | POST | PUT | PATCH | DELETE>
#       path: </path/{id}>
#       action: <create | read | update | replace | delete | list | transition | custom>
#       resource: <ResourceName>
#       transition: <transition>        # action transition
#       summary: <one line>
#       description: <more>
#       filter: [<field_name>]          # action list
#       sort: [<field_name>]            # action list
#       request_fields: [<field_name>]  # actions create, update, replace: the fields its request takes (all when absent)
#       answer_fields: [<field_name>]   # action list: the fields each object of its page carries (all when absent)
#       status: <success status>
#       request: { resource: <ResourceName> }       # or fields: { ... }; custom operations
#       response: { resource: <ResourceName>, list: <true | false> }
#       handler: <handler name>         # action custom
#       auth: { schemes: [<scheme>], scopes: [<scope>] }   # or: none
#       errors: [<error_code>]
#       idempotent: <true | false>
#       deprecated: <true | false>

# 5. Authentication
# authentication:
#   schemes:
#     <scheme>:
#       type: <api_key | basic | bearer | oauth2_client_credentials>
#       description: <who uses it>
#       in: <header | query>            # api_key
#       name: <header or parameter name> # api_key
#       prefix: <key prefix>            # api_key
#       token: jwt                      # bearer, oauth2_client_credentials
#       algorithms: [<JWS algorithm>]
#       issuer: <token issuer>
#       audience: <token audience>
#       lifetime: <duration>
#       clock_tolerance: <duration>
#       token_path: </token/path>       # oauth2_client_credentials
#   scopes:
#     "<scope>": <what it allows>
#   default: { schemes: [<scheme>], scopes: [<scope>] }   # or: none

# 6. Events
# events:
#   delivery:
#     webhook: { signing: standard-webhooks, retries: [<duration>], timeout: <duration> }
#     stream: { path: </events/path>, heartbeat: <duration> }
#   kinds:
#     <resource.happening>:
#       description: <what happened>
#       payload: { resource: <ResourceName> }   # or fields: { ... }
#       resource: <ResourceName>
#       on: [<create | update | delete>]

# 7. Errors
# errors:
#   body: problem                       # RFC 9457 problem details, or fields: { <field_name>: { type: <type> } }
#   codes:
#     <error_code>:
#       status: <HTTP status, 400-599>
#       title: <short title>
#       description: <when it happens>
#       when: [<condition>]
#       # conditions: validation, malformed_request, unsupported_media_type, missing_resource, route_not_found,
#       # method_not_allowed, illegal_transition, missing_credential, invalid_credential, expired_credential,
#       # missing_scope, not_owner, rate_limited, body_too_large, timeout, unique_conflict, reference_not_found,
#       # unsupported_version, idempotency_conflict, idempotency_in_progress, precondition_failed,
#       # precondition_required, unavailable, internal

# 8. Limits
# limits:
#   rate:
#     - name: <limit name>
#       requests: <number of requests>
#       per: <duration>
#       by: <credential | address | operation | global>
#       operations: [<operationId>]
#       on_store_failure: <open | closed>
#   body_size: <size, e.g. a number and B|KB|KiB|MB|MiB|GB|GiB>
#   header_size: <size>
#   nesting_depth: <levels>
#   page_size: { default: <items>, max: <items>, over_max: <reject | clamp> }
#   timeout: <duration>
#   concurrency: <requests at once>

# 9. Versioning
# versioning:
#   scheme: <date | semver | integer>
#   current: <version>
#   placement: { header: <header name> }   # or path: </v{version}>, query: <name>, media_type: <application/vnd.<name>.v{version}+json>
#   default: <current | oldest | required>
#   supported:
#     - version: <older version>
#       changes:
#         - rename_field: { resource: <ResourceName>, from: <old_name>, to: <new_name> }
#           description: <what changed>
#       deprecated: <YYYY-MM-DD>
#       sunset: <YYYY-MM-DD>
#   compatibility:
#     - <a rule for what may change within a version>
`;
}

export interface InitOptions {
  force?: boolean;
  quiet?: boolean;
}

/** `servicespec init [DIR]`: write DIR/service.yaml, refusing to overwrite an existing file unless --force. */
export function runInit(dir: string, options: InitOptions): ExitCode {
  const target = join(dir, INIT_FILE_NAME);
  if (existsSync(target) && !options.force) {
    io.err(`servicespec: ${target} already exists; nothing was written (use --force to overwrite it)\n`);
    return EXIT.errors;
  }
  try {
    mkdirSync(dir, { recursive: true });
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (err) {
    printDiagnostics([createDiagnostic('output-unwritable', { path: target, reason: describeFsError(err) }, { file: target })], { to: 'err' });
    return EXIT.errors;
  }
  const schemaRef = relative(resolve(dir), SCHEMA_PATH).split(sep).join('/');
  const problem = writeFileAtomic(target, initSkeleton(schemaRef));
  if (problem) {
    printDiagnostics([problem], { to: 'err' });
    return EXIT.errors;
  }
  if (!options.quiet) io.out(`wrote ${target}: every part is a commented skeleton; \`servicespec gaps ${target}\` lists what is not shown\n`);
  return EXIT.ok;
}

export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description(`start a spec: write DIR/${INIT_FILE_NAME} with each of the nine parts as a commented skeleton`)
    .argument('[dir]', 'the folder to write into (created if missing)', '.')
    .option('-f, --force', `overwrite an existing ${INIT_FILE_NAME}`)
    .option('-q, --quiet', 'print nothing on success')
    .addHelpText(
      'after',
      '\nThe skeleton invents no values: only `servicespec: 1` is live, so `check` passes and `gaps` reports\n' +
        'every part "not shown" until you fill it in.\n' +
        'Exit status: 0 when the file was written, 1 when it exists (without --force) or cannot be written, 2 on a usage error.',
    )
    .action(action((dir: string, options: InitOptions) => runInit(dir, options)));
}
