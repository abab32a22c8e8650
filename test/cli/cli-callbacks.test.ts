// serve and callbacks: without the service's callback secret (SERVICESPEC_CALLBACK_SECRET) a spec with callbacks is
// refused in one line; with it, the service starts and the SSRF guard refuses a private callback URL.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateWebhookSecret } from '../../src/runtime/events/events-signing.js';
import { callbackSpecText } from '../support/callbacks.js';
import { freePort, runCli, startCli, tempDir } from './cli-helpers.js';

const dir = tempDir();
afterAll(() => dir.remove());

describe('serve a spec with callbacks', { timeout: 60_000 }, () => {
  const spec = join(dir.path, 'callbacks.yaml');
  writeFileSync(spec, callbackSpecText());

  it('is refused without a callback secret, or with one that is not whsec_', async () => {
    const env = { SERVICESPEC_CALLBACK_SECRET: '' };
    const refused = await runCli(['serve', spec, '--db', 'sqlite::memory:', '--allow-gaps'], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('callbacks: the spec declares callbacks, but no secret signs them');
    expect(refused.stderr).toContain('SERVICESPEC_CALLBACK_SECRET');
    const bad = await runCli(['serve', spec, '--db', 'sqlite::memory:', '--allow-gaps'], { env: { SERVICESPEC_CALLBACK_SECRET: 'not-a-secret' } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('the callback secret must be whsec_');
  });

  it('serves with the secret from the environment: a private callback URL is refused at its field, a create without one is plain', async () => {
    const port = await freePort();
    const served = startCli(['serve', spec, '--db', 'sqlite::memory:', '--allow-gaps', '--port', String(port)], {
      env: { SERVICESPEC_CALLBACK_SECRET: generateWebhookSecret() },
    });
    try {
      await served.waitFor(/serving .* at http:/);
      const post = (body: unknown) =>
        fetch(`http://127.0.0.1:${port}/tickets`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      const refused = await post({ title: 'private', callback_url: 'http://10.1.2.3/hook' });
      expect(refused.status).toBe(422);
      expect(((await refused.json()) as { errors: { pointer: string }[] }).errors[0]!.pointer).toBe('/callback_url');
      expect((await post({ title: 'no callback' })).status).toBe(201);
    } finally {
      await served.stop();
    }
  });
});
