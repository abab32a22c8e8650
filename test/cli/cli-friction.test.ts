// Everyday friction (issue 17): gaps for CI, examples in every --help, one meaning per option name, quiet exports.

import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerCheckCommand } from '../../src/cli/cli-check.js';
import { registerClientCommand } from '../../src/cli/cli-generate-client.js';
import { registerClientsCommand } from '../../src/cli/cli-oauth-clients.js';
import { registerDiffCommand } from '../../src/cli/cli-diff.js';
import { registerDocCommand } from '../../src/cli/cli-doc.js';
import { addExamples, COMMAND_EXAMPLES } from '../../src/cli/cli-examples.js';
import { registerExportCommand } from '../../src/cli/cli-export.js';
import { registerGapsCommand } from '../../src/cli/cli-gaps.js';
import { registerImportCommand } from '../../src/cli/cli-import.js';
import { registerInitCommand } from '../../src/cli/cli-init.js';
import { registerKeysCommand } from '../../src/cli/cli-keys.js';
import { registerLspCommand } from '../../src/cli/cli-lsp.js';
import { registerMigrateCommand } from '../../src/cli/cli-migrate.js';
import { registerServeCommand } from '../../src/cli/cli-serve.js';
import { registerTestCommand } from '../../src/cli/cli-test.js';
import { registerHandlersTypeCommand } from '../../src/cli/cli-handlers-type.js';
import { registerUsersCommand } from '../../src/cli/cli-users.js';
import { registerWebhooksCommand } from '../../src/cli/cli-webhooks.js';
import { EXAMPLES, runCli } from './cli-helpers.js';

const [EMPTY, LIBRARY, ORDERS] = EXAMPLES as [string, string, string];

describe('gaps --fail-on-gaps', { timeout: 120_000 }, () => {
  it('exits 1 and names the parts when any part is not fully shown; 0 when all are shown', async () => {
    const open = await runCli(['gaps', EMPTY, '--fail-on-gaps']);
    expect(open.code).toBe(1);
    expect(open.stdout).toContain('not shown');
    expect(open.stderr).toMatch(/^servicespec gaps: --fail-on-gaps: 9 of 9 parts not fully shown \(purpose: not shown, /m);
    const plain = await runCli(['gaps', EMPTY]);
    expect(plain.code).toBe(0);
    const shown = await runCli(['gaps', ORDERS, '--fail-on-gaps', '--format', 'json']);
    expect(shown.code).toBe(0);
    expect((JSON.parse(shown.stdout) as { shown: number }).shown).toBe(9);
  });
});

describe('--help examples', { timeout: 120_000 }, () => {
  function program(): Command {
    const p = new Command('servicespec').version('0', '-V, --version').enablePositionalOptions();
    for (const register of [
      registerCheckCommand,
      registerGapsCommand,
      registerDocCommand,
      registerDiffCommand,
      registerInitCommand,
      registerServeCommand,
      registerMigrateCommand,
      registerKeysCommand,
      registerClientsCommand,
      registerUsersCommand,
      registerWebhooksCommand,
      registerExportCommand,
      registerImportCommand,
      registerClientCommand,
      registerTestCommand,
      registerHandlersTypeCommand,
      registerLspCommand,
    ])
      register(p);
    addExamples(p);
    return p;
  }
  function walk(c: Command, path: string[] = []): [string, Command][] {
    return [[path.join(' '), c], ...c.commands.filter((s) => s.name() !== 'help').flatMap((s) => walk(s, [...path, s.name()]))];
  }
  function helpOf(c: Command): string {
    let text = '';
    c.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
    c.outputHelp();
    return text;
  }

  it('every command has an example after its help', () => {
    for (const [path, c] of walk(program())) expect(helpOf(c), `servicespec ${path} --help`).toMatch(/\nExamples:\n {2}\$ /);
  });

  it('every example names a real command and only options that command has', () => {
    const commands = new Map(walk(program()));
    for (const [path, examples] of Object.entries(COMMAND_EXAMPLES)) {
      expect(commands.has(path), path).toBe(true);
      for (const example of examples) {
        const words = example.replace(/#.*$/, '').split(/\s+/);
        const start = words.findIndex((w) => /(^|\()servicespec$/.test(w));
        let c = commands.get('')!;
        let i = start + 1;
        for (let next = c.commands.find((s) => s.name() === words[i]); next; next = c.commands.find((s) => s.name() === words[i])) {
          c = next;
          i += 1;
        }
        expect(c.name(), example).not.toBe('servicespec');
        for (const w of words.slice(i).filter((w) => w.startsWith('-'))) {
          expect(
            c.options.some((o) => o.long === w || o.short === w),
            `${w} in: ${example}`,
          ).toBe(true);
        }
      }
    }
  });

  it('the real command prints them', async () => {
    const r = await runCli(['serve', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:\n  $ servicespec serve examples/orders.yaml --handlers examples/orders-handlers.js\n');
  });
});

describe('one meaning per option name; export quiet by default', { timeout: 120_000 }, () => {
  it('--format is a report format everywhere; export names its document syntax --syntax and its served version --api-version', () => {
    const formats = new Set<string>();
    const walk = (c: Command): void => {
      for (const o of c.options) if (o.long === '--format' && !o.hidden) formats.add(JSON.stringify(o.argChoices?.filter((x) => x !== 'markdown')));
      c.commands.forEach(walk);
    };
    const p = new Command('servicespec');
    for (const register of [
      registerCheckCommand,
      registerGapsCommand,
      registerDiffCommand,
      registerKeysCommand,
      registerExportCommand,
      registerImportCommand,
      registerWebhooksCommand,
    ])
      register(p);
    walk(p);
    expect([...formats]).toEqual([JSON.stringify(['text', 'json'])]);
  });

  it('export prints a count of its info lines, each only with --verbose; the old names still work with a note', async () => {
    const plain = await runCli(['export', 'openapi', ORDERS]);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toMatch(/^\d+ items written to x-servicespec-\* extensions or left out \(--verbose lists them\)\n$/);
    const verbose = await runCli(['export', 'openapi', ORDERS, '--verbose']);
    expect(verbose.stderr).toContain('info export-extension: the Order state machine');
    expect(verbose.stderr.split('\n').length).toBeGreaterThan(40);
    expect(verbose.stdout).toBe(plain.stdout);

    const renamed = await runCli(['export', 'openapi', LIBRARY, '--api-version', '1', '--syntax', 'json', '--quiet']);
    expect(renamed).toMatchObject({ code: 0, stderr: '' });
    const old = await runCli(['export', 'openapi', LIBRARY, '--version', '1', '--format', 'json']);
    expect(old.code).toBe(0);
    expect(old.stdout).toBe(renamed.stdout);
    expect(old.stderr).toContain('servicespec export: --format is deprecated; use --syntax (same values)\n');
    expect(old.stderr).toContain('servicespec export: --version is deprecated; use --api-version (same values)\n');
  });
});
