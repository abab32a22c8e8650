// The bin's `check FILE` (cli-check-args.ts) from one bundled file, `dist/cli/cli-check-bundle.cjs`, which `npm run
// build` writes with esbuild from cli-check-direct.js and everything it imports (scripts/build-check-bundle.mjs):
// one file to read and compile instead of some forty ES modules, each resolved, read and linked, and commander not
// at all (bench/RESULTS.md, "check against redocly lint"). Node 22.1+ keeps V8's compiled code of it in its own
// compile cache (cli-main.ts turns that on); on Node 20, V8's code cache for it is kept by hand through `vm.Script`'s
// documented `cachedData`, in the OS temp folder as Node's cache is. Running from src/ there is no bundle: the bin
// then runs `check` through `run` (cli-run.ts), as it does any call with SERVICESPEC_FAST_PATHS=off.

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import type * as Direct from './cli-check-direct.js';

export type CheckBundle = Pick<typeof Direct, 'runDirectCheck' | 'printInternalError' | 'PRECOMPILED_VALIDATOR'>;

/** The bundle's name, next to the built cli-main.js. */
export const CHECK_BUNDLE = 'cli-check-bundle.cjs';

/** The bundle, or undefined when there is none (running from src/). */
export function loadCheckBundle(): CheckBundle | undefined {
  const path = fileURLToPath(new URL(CHECK_BUNDLE, import.meta.url));
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return undefined;
  }
  // A bundle older than the modules beside it (`tsc` run alone after a build) would run old code: not used.
  if (stat.mtimeMs < statSync(fileURLToPath(import.meta.url)).mtimeMs) return undefined;
  const require = createRequire(path);
  if ((module as { enableCompileCache?: unknown }).enableCompileCache !== undefined) return require(path) as CheckBundle;
  const bundle = runWithCodeCache(path, require) as CheckBundle;
  cacheValidator(join(dirname(path), '..', 'spec', bundle.PRECOMPILED_VALIDATOR), require);
  return bundle;
}

/**
 * The ahead-of-time validator (dist/spec/spec-schema-validator.cjs, outside the bundle: spec-validate.ts requires it
 * by name) with V8's code cache too: compiling it is ~2 % of `check` of a large spec (bench/RESULTS.md, check). A
 * `require.cache` entry (Node documents adding entries) whose exports run the file on first use, so a spec that
 * fails before validation never loads it; spec-validate.ts then checks its schema hash as for any copy.
 */
function cacheValidator(file: string, require: NodeJS.Require): void {
  try {
    statSync(file);
  } catch {
    return;
  }
  let exports: unknown;
  require.cache[file] = {
    id: file,
    filename: file,
    loaded: true,
    children: [],
    paths: [],
    get exports() {
      exports ??= runWithCodeCache(file, require);
      return exports;
    },
  } as unknown as NodeJS.Module;
}

/**
 * Runs a CommonJS file as `require` would, with V8's code cache of it: read from the cache file when there is one
 * (V8 checks it belongs to this source and this V8, and compiles as usual when not), written at exit otherwise, after
 * the run, so it holds every function the run compiled. Returns its `module.exports`.
 */
function runWithCodeCache(path: string, require: NodeJS.Require): unknown {
  const source = readFileSync(path, 'utf8');
  // Keyed by the source's digest: V8's own check of a cache compares the source's length only.
  const digest = createHash('sha256').update(source).digest('hex').slice(0, 32);
  const cacheFile = join(tmpdir(), 'servicespec-compile-cache', `${process.version}-${process.arch}-${digest}.bin`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(module.wrap(source), { filename: path, cachedData });
  if (cachedData === undefined || script.cachedDataRejected === true) {
    process.once('exit', () => {
      try {
        mkdirSync(dirname(cacheFile), { recursive: true });
        const temp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
      } catch {
        // No cache this time: the next run compiles as this one did.
      }
    });
  }
  const exports = {};
  const mod = { exports, id: path, filename: path, loaded: false };
  (script.runInThisContext() as (...args: unknown[]) => void).call(exports, exports, require, mod, path, dirname(path));
  return mod.exports;
}
