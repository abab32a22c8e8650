// A state machine's `removed_states` (docs/format.md): each names a state the machine no longer has and maps it to
// one it has; `servicespec migrate --apply` moves the stored objects (test/storage/storage-migrate.test.ts).
import { describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';

const spec = (removed: string) => `servicespec: 1
purpose: { name: T, summary: T. }
resources:
  Task:
    fields:
      id: { type: string, readOnly: true }
      status: { type: state }
states:
  Task:
    field: status
    initial: open
    terminal: [done]
    states: { open: {}, done: {} }
    transitions: { finish: { from: open, to: done } }
    removed_states: ${removed}
`;

const found = (removed: string) =>
  compileSpecText(spec(removed), 'tasks.yaml')
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => [d.code, d.message, d.pointer]);

describe('removed_states', () => {
  it('maps a state the machine no longer has to one it has: no diagnostic, carried into the model', () => {
    expect(found('{ lost: done }')).toEqual([]);
    expect(compileSpecText(spec('{ lost: done }'), 'tasks.yaml').model!.stateMachines[0]!.removedStates).toEqual({ lost: 'done' });
  });

  it('refuses a state the machine still has (removed-state-still-declared)', () => {
    expect(found('{ open: done }')).toEqual([
      [
        'removed-state-still-declared',
        'states.Task.removed_states names `open`, which the Task state machine still has: only a state it no longer has can be removed',
        '/states/Task/removed_states/open',
      ],
    ]);
  });

  it('refuses a target the machine does not have (unknown-state)', () => {
    expect(found('{ lost: gone }').map((d) => d[0])).toEqual(['unknown-state']);
  });

  it('refuses a target that is not a string (the schema)', () => {
    expect(found('{ lost: 3 }').length).toBeGreaterThan(0);
  });
});
