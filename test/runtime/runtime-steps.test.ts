import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ANSWERED, createPipeline, type Step } from '../../src/runtime/runtime-steps.js';

// The step runner alone: steps are plain functions of (request, reply), so plain objects stand in for them.
const request = {} as FastifyRequest;
const reply = {} as FastifyReply;

describe('the step runner', () => {
  it('runs synchronous steps in order in one turn, and gives Fastify undefined', () => {
    const seen: number[] = [];
    const steps: Step[] = [() => void seen.push(1), () => void seen.push(2), () => (seen.push(3), reply)];
    expect(createPipeline(steps)(request, reply)).toBeUndefined();
    expect(seen).toEqual([1, 2, 3]);
  });

  it('hands the rest of the steps to the first promise, and resolves to what the last step answered', async () => {
    const seen: string[] = [];
    const steps: Step[] = [
      () => void seen.push('sync'),
      () => Promise.resolve().then(() => void seen.push('async')),
      () => (seen.push('last'), Promise.resolve(reply)),
    ];
    const out = createPipeline(steps)(request, reply);
    expect(out).toBeInstanceOf(Promise);
    expect(seen).toEqual(['sync']);
    expect(await out).toBe(reply);
    expect(seen).toEqual(['sync', 'async', 'last']);
  });

  it('after a promise, resolves to what a synchronous last step answered, so a reply (a thenable) is waited for', async () => {
    let finished = false;
    // Fastify's reply is a thenable that settles once the response has been sent (async onSend hooks included).
    const sending = { then: (done: () => void) => void setImmediate(() => ((finished = true), done())) };
    const out = createPipeline([() => Promise.resolve(), () => sending])(request, reply);
    await out;
    expect(finished).toBe(true);
  });

  it('stops at a step that answered the request itself, synchronously or through a promise', async () => {
    let reached = false;
    const after: Step = () => void (reached = true);
    expect(createPipeline([() => ANSWERED, after])(request, reply)).toBeUndefined();
    expect(await createPipeline([() => Promise.resolve(ANSWERED), after])(request, reply)).toBeUndefined();
    expect(reached).toBe(false);
  });

  it('lets a throw escape synchronously and a rejection through the promise, running no later step', async () => {
    let reached = false;
    const after: Step = () => void (reached = true);
    expect(() =>
      createPipeline([
        () => {
          throw new Error('refused');
        },
        after,
      ])(request, reply),
    ).toThrow('refused');
    await expect(createPipeline([() => Promise.reject(new Error('later')), after])(request, reply)).rejects.toThrow('later');
    expect(reached).toBe(false);
  });
});
