// Callbacks in diff: one removed, its URL field changed or a kind it carried removed is breaking; one added, or a
// kind added to it, is not (receivers ignore kinds they do not know, as webhook consumers do).
import { describe, expect, it } from 'vitest';
import { compareModels } from '../../src/diff/diff-rules.js';
import { compileSpecText } from '../../src/program.js';
import { CALLBACK_SPEC } from '../support/callbacks.js';

const model = (text: string) => {
  const c = compileSpecText(text);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
};
const changes = (before: string, after: string) =>
  compareModels(model(before), model(after)).map((c) => `${c.impact} ${c.code} ${c.reason} @${c.new?.pointer ?? c.old?.pointer ?? ''}`);
const EVENTS = 'events: [subscription.updated, subscription.cancelled]';

describe('diff of callbacks', () => {
  it('finds nothing between a spec and itself', () => {
    expect(changes(CALLBACK_SPEC, CALLBACK_SPEC)).toEqual([]);
  });

  it('a kind removed from a callback is breaking, one added is not', () => {
    const fewer = CALLBACK_SPEC.replace(EVENTS, 'events: [subscription.updated]');
    expect(changes(CALLBACK_SPEC, fewer)).toEqual([
      'breaking callback-event-removed operation subscribe: callback onData no longer carries event subscription.cancelled @/endpoints/operations/subscribe/callbacks/onData/events',
    ]);
    expect(changes(fewer, CALLBACK_SPEC)).toEqual([
      'non-breaking callback-event-added operation subscribe: callback onData now also carries event subscription.cancelled; receivers must ignore kinds they do not know @/endpoints/operations/subscribe/callbacks/onData/events',
    ]);
  });

  it('a callback removed, or its URL read from another field, is breaking; one added is not', () => {
    const without = CALLBACK_SPEC.replace(/ {6}callbacks:\n(?: {8,}.*\n)+/, '');
    expect(without).not.toContain('onData');
    expect(changes(CALLBACK_SPEC, without)).toEqual([
      'breaking callback-removed operation subscribe: callback onData was removed; clients that give its URL no longer receive its events @/endpoints/operations/subscribe',
    ]);
    expect(changes(without, CALLBACK_SPEC)).toEqual([
      'non-breaking callback-added operation subscribe: new callback onData @/endpoints/operations/subscribe/callbacks/onData',
    ]);
    const moved = CALLBACK_SPEC.replace(
      '      topic: { type: string }\n',
      '      topic: { type: string }\n      notifyUrl: { type: uri, optional: true }\n',
    ).replace('url: callbackUrl', 'url: notifyUrl');
    expect(changes(CALLBACK_SPEC, moved).filter((c) => c.includes('callback'))).toEqual([
      'breaking callback-url-changed operation subscribe: callback onData now reads its URL from notifyUrl (was callbackUrl); clients sending the old field are no longer called back @/endpoints/operations/subscribe/callbacks/onData/url',
    ]);
  });
});
