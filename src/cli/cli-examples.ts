// An example or two at the end of every command's --help, kept in one place so each stays true to the others.

import type { Command } from 'commander';

// No --db: every command's default is data/<spec name>.db beside the spec (examples/data/orders.db here), the
// database `npm start` serves, so `keys create examples/orders.yaml` finds the service's credentials.

/** By command path without the program name (`keys create`); the commands with subcommands get theirs too. */
export const COMMAND_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  '': ['servicespec check examples/orders.yaml', 'servicespec serve examples/orders.yaml --allow-gaps --cors http://localhost:5173'],
  check: [
    'servicespec check examples/orders.yaml',
    'servicespec check spec.yaml --format json --quiet',
    'servicespec check spec.yaml --watch   # again on every save',
  ],
  gaps: [
    'servicespec gaps examples/orders.yaml',
    'servicespec gaps spec.yaml --fail-on-gaps --quiet   # in CI: fail while a part is not shown',
    'servicespec gaps api.spec.yaml --handlers handlers.ts   # name each custom operation handlers.ts gives no handler',
  ],
  doc: ['servicespec doc examples/orders.yaml -o orders.md', 'servicespec doc examples/orders.yaml --html -o orders.html'],
  diff: ['servicespec diff examples/library.yaml library-next.yaml --fail-on breaking', 'servicespec diff git:main:spec.yaml spec.yaml --format markdown'],
  init: ['servicespec init my-service', 'servicespec init . --force'],
  serve: [
    'servicespec serve examples/orders.yaml --handlers examples/orders-handlers.js',
    'PORT=8080 HOST=0.0.0.0 servicespec serve spec.yaml --cors https://app.example.com --log-format json',
    'servicespec serve spec.yaml --watch --allow-gaps   # reload on every save; a broken edit keeps the last good spec',
  ],
  migrate: [
    'servicespec migrate examples/orders.yaml   # the plan: each step, what it does to data, how many rows',
    'servicespec migrate examples/orders.yaml --apply --allow-data-loss',
    'servicespec migrate spec.yaml --db postgres://app@db:5432/orders --format json',
  ],
  keys: [`KEY=$(servicespec keys create examples/orders.yaml --subject alice --scopes orders:read)`, `servicespec keys list examples/orders.yaml`],
  'keys create': [
    `servicespec keys create examples/orders.yaml --subject alice --scopes orders:read,orders:write`,
    'KEY=$(servicespec keys create spec.yaml --subject ci --scopes orders:read)   # the key alone is on stdout',
  ],
  'keys list': [`servicespec keys list examples/orders.yaml`, 'servicespec keys list spec.yaml --format json'],
  'keys revoke': [`servicespec keys revoke examples/orders.yaml Ab12Cd34Ef56`],
  clients: [`servicespec clients create spec.yaml --scopes orders:read`],
  'clients create': [`servicespec clients create spec.yaml --subject billing --scopes orders:read`],
  'clients list': [`servicespec clients list spec.yaml --format json`],
  'clients revoke': [`servicespec clients revoke spec.yaml Ab12Cd34Ef56`],
  users: [`servicespec users create spec.yaml ada --scopes orders:read`],
  'users create': [`printf '%s' "$PASSWORD" | servicespec users create spec.yaml ada --scopes orders:read --password-stdin`],
  'users list': [`servicespec users list spec.yaml`],
  'users revoke': [`servicespec users revoke spec.yaml ada`],
  webhooks: [`servicespec webhooks add examples/orders.yaml --url https://hooks.example.com/orders`],
  'webhooks add': [
    `servicespec webhooks add examples/orders.yaml --url https://hooks.example.com/orders --kinds order.paid`,
    `servicespec webhooks add examples/orders.yaml --url http://127.0.0.1:9000/hook --allow-webhook-target 127.0.0.0/8`,
  ],
  'webhooks list': [`servicespec webhooks list examples/orders.yaml --format json`],
  'webhooks remove': [`servicespec webhooks remove examples/orders.yaml ep_01J9`],
  'webhooks rotate': [`servicespec webhooks rotate examples/orders.yaml ep_01J9 --grace 1h`],
  'webhooks enable': [`servicespec webhooks enable examples/orders.yaml ep_01J9`],
  'webhooks deliveries': [`servicespec webhooks deliveries examples/orders.yaml --endpoint ep_01J9 --limit 10`],
  'webhooks replay': [`servicespec webhooks replay examples/orders.yaml --endpoint ep_01J9`],
  export: ['servicespec export openapi examples/orders.yaml -o orders.openapi.yaml', 'servicespec export asyncapi examples/orders.yaml --syntax json'],
  'export openapi': [
    'servicespec export openapi examples/orders.yaml -o orders.openapi.json',
    'servicespec export openapi examples/library.yaml --api-version 1 --openapi 3.0',
    'servicespec export openapi examples/orders.yaml --verbose > /dev/null   # list what went into x-servicespec-*',
  ],
  'export asyncapi': ['servicespec export asyncapi examples/orders.yaml -o orders.asyncapi.yaml'],
  'export json-schema': [
    'servicespec export json-schema examples/library.yaml --dir schemas/',
    'servicespec export json-schema examples/library.yaml --syntax yaml',
  ],
  import: ['servicespec import openapi petstore.openapi.yaml -o petstore.yaml'],
  'import openapi': [
    'servicespec import openapi petstore.openapi.yaml -o petstore.yaml',
    'servicespec import openapi petstore.openapi.json -o petstore.yaml --format json > report.json',
  ],
  client: ['servicespec client examples/orders.yaml -o client.ts'],
  lsp: ['servicespec lsp --stdio   # started by the editor: docs/editors.md (VS Code, Neovim, any LSP client)'],
  'handlers-type': ['servicespec handlers-type examples/orders.yaml -o handlers-types.ts   # then: export const handlers: Handlers = { … }'],
  test: [
    'KEY=$(servicespec keys create examples/orders.yaml --subject alice --scopes orders:read,orders:write,customers:read,customers:write)   # a credential to test with',
    'servicespec test examples/orders.yaml --base-url http://127.0.0.1:3000 --header "X-API-Key: $KEY"',
    'servicespec test examples/orders.yaml --base-url http://127.0.0.1:3000 --header "X-API-Key: $KEY" --other-header "X-API-Key: $BOB_KEY"   # ownership too',
    'servicespec test spec.yaml --base-url http://127.0.0.1:8080 --bearer "$TOKEN" --format junit > report.xml   # in CI',
    'servicespec test spec.yaml --base-url http://127.0.0.1:8080 --bearer "$TOKEN" --seed 7 --only states   # replay a failure',
  ],
};

function pathOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Adds "Examples:" after the help of every command that has some (commander's generated `help` has none). */
export function addExamples(command: Command): void {
  const examples = COMMAND_EXAMPLES[pathOf(command)];
  if (examples) command.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}\n`).join('')}`);
  for (const sub of command.commands) addExamples(sub);
}
