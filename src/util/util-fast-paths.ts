// The one switch of the fast paths (docs/architecture.md, "Fast paths"): SERVICESPEC_FAST_PATHS=off makes every
// fast path take its plain counterpart, the reference it must answer byte-identically to. Read here and nowhere
// else; an explicit option (createService's and createSqliteStorage's `fastPaths`) wins over the environment, so
// a test can run both paths in one process.

/** The environment variable; `off` selects the plain paths, anything else (or nothing) the fast ones. */
export const FAST_PATHS_ENV = 'SERVICESPEC_FAST_PATHS';

/** Whether the fast paths are on: the given option, else the environment (read on each call: it is read at start-up). */
export function getFastPaths(given?: boolean): boolean {
  if (given !== undefined) return given;
  // The one exception to "the environment is read in src/cli/": the switch must reach every entry point the
  // tests use (createService, createSqliteStorage, the loader, called directly by dozens of test files), so CI can
  // run the HTTP and loader suites again with it off without each caller passing it on.
  // eslint-disable-next-line no-restricted-properties -- see above: one switch, read in one place
  return process.env[FAST_PATHS_ENV]?.trim().toLowerCase() !== 'off';
}
