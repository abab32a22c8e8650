#!/usr/bin/env node
// `npm run build`'s last step: `check FILE`'s code (dist/cli/cli-check-direct.js and all it imports, js-yaml and
// fastest-levenshtein included) as one CommonJS file, dist/cli/cli-check-bundle.cjs, which the bin loads for that
// call (src/cli/cli-bundle.ts). Modules loaded on demand (`yaml`, Ajv, commander: by `createRequire`) and the
// ahead-of-time validator (dist/spec/spec-schema-validator.cjs) stay outside and load as before. The bundle sits
// two levels below the package root as dist/spec/ does, so the paths the code finds from `import.meta.url` hold.

import { fileURLToPath, URL } from 'node:url';
import { build } from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));

await build({
  entryPoints: [`${dist}cli/cli-check-direct.js`],
  outfile: `${dist}cli/cli-check-bundle.cjs`,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // ES modules' `import.meta.url`, as the bundle's own URL.
  banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  define: { 'import.meta.url': '__importMetaUrl' },
  logLevel: 'warning',
});
