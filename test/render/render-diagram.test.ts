import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StateMachineModel } from '../../src/model/model-types.js';
import { compileSpecFile } from '../../src/program.js';
import { getStateDiagramLayout, type DiagramPoint, type DiagramRect, type StateDiagramLayout } from '../../src/render/render-html.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function machinesOf(file: string): StateMachineModel[] {
  const compiled = compileSpecFile(join(root, file));
  expect(compiled.model).toBeDefined();
  return [...compiled.model!.stateMachines];
}

function rectsOverlap(a: DiagramRect, b: DiagramRect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Liang–Barsky: does the segment p–q pass through the rectangle (touching its border counts)? */
function segmentHitsRect(p: DiagramPoint, q: DiagramPoint, r: DiagramRect): boolean {
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  let t0 = 0;
  let t1 = 1;
  const edges: [number, number][] = [
    [-dx, p.x - r.x],
    [dx, r.x + r.width - p.x],
    [-dy, p.y - r.y],
    [dy, r.y + r.height - p.y],
  ];
  for (const [pk, qk] of edges) {
    if (pk === 0) {
      if (qk < 0) return false;
    } else {
      const t = qk / pk;
      if (pk < 0) t0 = Math.max(t0, t);
      else t1 = Math.min(t1, t);
      if (t0 > t1) return false;
    }
  }
  return true;
}

/** Every way a label of this layout is hidden or crossed: by an arrow, a state, the start marker or another label. */
function labelProblems(layout: StateDiagramLayout): string[] {
  const problems: string[] = [];
  layout.labels.forEach((label, i) => {
    const r = label.rect;
    if (r.x < 0 || r.y < 0 || r.x + r.width > layout.width || r.y + r.height > layout.height) problems.push(`label "${label.text}" is outside the picture`);
    layout.edges.forEach((edge, j) => {
      const hit = edge.points.slice(1).some((q, k) => segmentHitsRect(edge.points[k]!, q, r));
      if (hit) problems.push(`label "${label.text}" overlaps edge ${j} (${edge.from ?? 'start'} → ${edge.to})`);
    });
    for (const s of layout.states) if (rectsOverlap(r, s.rect)) problems.push(`label "${label.text}" overlaps state ${s.name}`);
    if (layout.start) {
      const { centre, radius } = layout.start;
      const box = { x: centre.x - radius, y: centre.y - radius, width: 2 * radius, height: 2 * radius };
      if (rectsOverlap(r, box)) problems.push(`label "${label.text}" overlaps the start marker`);
    }
    layout.labels.slice(i + 1).forEach((other) => {
      if (rectsOverlap(r, other.rect)) problems.push(`label "${label.text}" overlaps label "${other.text}"`);
    });
  });
  return problems;
}

function layoutOf(sm: StateMachineModel): StateDiagramLayout {
  const layout = getStateDiagramLayout(sm);
  expect(layout).toBeDefined();
  return layout!;
}

const NAMES = ['draft', 'open', 'paid', 'cancelled', 'shipped', 'a', 'on_loan', 'returned_late', 'x1', 'archived'];

/** A random state machine: any states, any transitions between them (self-loops, both ways, many from one state). */
const arbMachine: fc.Arbitrary<StateMachineModel> = fc
  .uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 7 })
  .chain((states) =>
    fc.record({
      states: fc.constant(states),
      initial: fc.option(fc.constantFrom(...states), { nil: undefined }),
      terminal: fc.subarray(states),
      transitions: fc.array(
        fc.record({
          name: fc.stringMatching(/^[a-z][a-z_]{0,13}$/),
          from: fc.uniqueArray(fc.constantFrom(...states), { minLength: 1, maxLength: 3 }),
          to: fc.constantFrom(...states),
        }),
        { maxLength: 12 },
      ),
    }),
  )
  .map(({ states, initial, terminal, transitions }) => ({
    resource: 'thing',
    pointer: '/states/thing',
    ...(initial !== undefined ? { initial } : {}),
    states: states.map((name) => ({ name, terminal: terminal.includes(name), declared: true })),
    transitions: transitions.map((t, i) => ({ ...t, pointer: `/states/thing/transitions/${i}`, requires: [] })),
  }));

describe('state diagram layout', () => {
  it.each(['examples/orders.yaml', 'examples/library.yaml'])('%s: no label overlaps an edge, a state or another label', (file) => {
    const machines = machinesOf(file);
    expect(machines.length).toBeGreaterThan(0);
    for (const sm of machines) {
      const layout = layoutOf(sm);
      expect(layout.labels.length).toBeGreaterThan(0);
      expect(labelProblems(layout), sm.resource).toEqual([]);
    }
  });

  it('places every label clear of every edge, state and other label in any state machine', () => {
    fc.assert(
      fc.property(arbMachine, (sm) => {
        const layout = layoutOf(sm);
        const arrows = new Set(sm.transitions.flatMap((t) => t.from.map((f) => `${f}>${t.to}`)));
        expect(layout.labels.length).toBe(arrows.size);
        expect(labelProblems(layout)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same layout for the same machine', () => {
    const [sm] = machinesOf('examples/orders.yaml');
    expect(getStateDiagramLayout(sm!)).toEqual(getStateDiagramLayout(sm!));
  });
});
