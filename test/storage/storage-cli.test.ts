// The --db option names PostgreSQL too; an unusable URL or an unreachable server is one clear line, the password never printed.
import { describe, expect, it } from 'vitest';
import { EVENTS_SPEC } from '../events/helpers.js';
import { runCli, STACK_LINE } from '../cli/cli-helpers.js';

describe('--db postgres://', () => {
  it('serve: an unreachable server exits 1 with one line naming it, password redacted', async () => {
    const r = await runCli(['serve', EVENTS_SPEC, '--db', 'postgres://ann:s3cret@127.0.0.1:1/service', '--allow-gaps', '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^servicespec serve: cannot open postgres:\/\/ann:\*\*\*@127\.0\.0\.1:1\/service: connect ECONNREFUSED/m);
    expect(r.stderr).not.toContain('s3cret');
    expect(r.stderr).not.toMatch(STACK_LINE);
  });

  it('keys list: the same for the credential commands', async () => {
    const r = await runCli(['keys', 'list', EVENTS_SPEC, '--db', 'postgres://ann:s3cret@127.0.0.1:1/service']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^servicespec keys list: cannot open postgres:\/\/ann:\*\*\*@127\.0\.0\.1:1\/service/m);
    expect(r.stderr).not.toContain('s3cret');
  });

  it('an unsupported URL is a usage error naming the forms accepted', async () => {
    const r = await runCli(['serve', EVENTS_SPEC, '--db', 'mysql://x@localhost/db', '--allow-gaps']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unsupported database URL "mysql://x@localhost/db"; use sqlite:PATH, sqlite::memory: or postgres://user@host:port/database');
  });

  it('a schema that is not a plain lower-case name is a usage error', async () => {
    const r = await runCli(['serve', EVENTS_SPEC, '--db', 'postgres://x@localhost/db?schema=My%20Schema', '--allow-gaps']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('servicespec serve: schema "My Schema" must be a lower-case SQL name (letters, digits and _, not starting with a digit)');
  });
});
