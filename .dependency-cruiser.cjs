// The layers of src/ (docs/architecture.md, "Layers"), checked by `npm run lint`. Each layer names the layers it
// may import besides itself; any other import inside src/ is an error, and so is any cycle. Type-only imports
// count: a type pulls its module's layer in as much as a value does.
// test/lint/lint-layers.test.ts injects a break and a cycle into a copy of src/ and asserts this fails.

/** Layer → [path pattern, layers it may import]. Bottom first. */
const LAYERS = {
  util: ['^src/util/', []],
  diagnostics: ['^src/diagnostics/', ['util']],
  spec: ['^src/spec/', ['diagnostics', 'util']],
  model: ['^src/model/', ['spec', 'diagnostics', 'util']],
  check: ['^src/check/', ['model', 'spec', 'diagnostics', 'util']],
  export: ['^src/export/', ['model', 'spec', 'diagnostics', 'util']],
  tester: ['^src/tester/', ['model', 'spec', 'diagnostics', 'util']],
  program: ['^src/program[.]ts$', ['check', 'model', 'spec', 'diagnostics', 'util']],
  diff: ['^src/diff/', ['program', 'model', 'spec', 'diagnostics', 'util']],
  render: ['^src/render/', ['check', 'export', 'model', 'spec', 'diagnostics', 'util']],
  import: ['^src/import/', ['program', 'check', 'export', 'model', 'spec', 'diagnostics', 'util']],
  storage: ['^src/runtime/storage/', ['model', 'spec', 'diagnostics', 'util']],
  kernel: ['^src/runtime/[^/]+[.]ts$', ['storage', 'model', 'spec', 'diagnostics', 'util']],
  limits: ['^src/runtime/limits/', ['kernel', 'storage', 'model', 'spec', 'diagnostics', 'util']],
  auth: ['^src/runtime/auth/', ['limits', 'kernel', 'storage', 'model', 'spec', 'diagnostics', 'util']],
  events: ['^src/runtime/events/', ['kernel', 'storage', 'model', 'spec', 'diagnostics', 'util']],
  service: ['^src/runtime/service/', ['auth', 'events', 'limits', 'kernel', 'storage', 'export', 'render', 'model', 'spec', 'diagnostics', 'util']],
  lsp: ['^src/lsp/', ['program', 'check', 'model', 'spec', 'diagnostics', 'util']],
  cli: ['^src/cli/', ['*']],
  index: ['^src/index[.]ts$', ['*']],
};

const others = (name) => Object.keys(LAYERS).filter((n) => n !== name && n !== 'cli' && n !== 'index');

const layerRules = Object.entries(LAYERS).map(([name, [path, may]]) => ({
  name: `layer-${name}`,
  comment: `${name} may import only ${may.includes('*') ? 'any layer but cli/ and index.ts' : [name, ...may].join(', ')} (docs/architecture.md, Layers)`,
  severity: 'error',
  from: { path },
  to: { path: '^src/', pathNot: [path, ...(may.includes('*') ? others(name) : may).map((m) => LAYERS[m][0])] },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      comment: 'No module imports itself through others (type-only imports included).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'model-built-only-by-the-front-end',
      comment: 'Only program.ts (load → validate → build → check) and index.ts build a model; readers take the frozen model.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/model/', '^src/program[.]ts$', '^src/index[.]ts$'] },
      to: { path: '^src/model/model-builder[.]ts$' },
    },
    {
      name: 'check-record-only-in-program',
      comment: 'Only program.ts records a check: a CheckedModel (what the runtime requires) comes from the front end alone.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/program[.]ts$', '^src/model/model-checked[.]ts$'] },
      to: { path: '^src/model/model-check-record[.]ts$' },
    },
    {
      name: 'command-line-only-in-cli',
      comment: 'Command-line and environment handling lives in src/cli/; nothing else imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
  },
};

// For test/lint/lint-layers.test.ts, which checks the table in docs/architecture.md against it (not config).
Object.defineProperty(module.exports, 'LAYERS', { value: LAYERS, enumerable: false });
