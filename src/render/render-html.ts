import type { ServiceModel, StateMachineModel } from '../model/model-types.js';
import { DOCUMENT_TITLE, buildDocument, type Block, type Inline } from './render-markdown.js';

// The nine-part document as one standalone HTML page: the same blocks as the Markdown (buildDocument),
// every piece of text from the spec escaped, no scripts, no external resources, and each state machine
// drawn as an inline SVG diagram. Deterministic: ids and coordinates depend only on the model.

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

function inlineHtml(content: Inline): string {
  return content
    .map((s) => (typeof s === 'string' ? escapeHtml(s) : 'code' in s ? `<code>${escapeHtml(s.code)}</code>` : `<strong>${escapeHtml(s.strong)}</strong>`))
    .join('');
}

/** Unique, stable ids for headings, so every part and sub-part can be linked to. */
function slugger(): (text: string) => string {
  const used = new Map<string, number>();
  return (text) => {
    const base =
      text
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '') || 'section';
    const n = used.get(base) ?? 0;
    used.set(base, n + 1);
    return n === 0 ? base : `${base}-${n + 1}`;
  };
}

// ---------------------------------------------------------------------------------------------------
// State diagrams: states in columns by their distance from the initial state, transitions as arrows.

const BOX_HEIGHT = 34;
const ROW_GAP = 26;
const CHAR_WIDTH = 7.3; // 12px monospace
const MARGIN = 24;
const START_SPACE = 36; // room left of the first column for the initial-state marker
const LOOP_SPACE = 34; // room above the boxes for self-loops and curved arrows

const fmt = (n: number): string => String(Math.round(n * 10) / 10);

interface Box {
  name: string;
  terminal: boolean;
  column: number;
  x: number;
  y: number;
  w: number;
}

/** The point where the line from a box's centre in direction (dx, dy) leaves the box. */
function exitPoint(b: Box, dx: number, dy: number): [number, number] {
  const hw = b.w / 2;
  const hh = BOX_HEIGHT / 2;
  const tx = dx === 0 ? Infinity : hw / Math.abs(dx);
  const ty = dy === 0 ? Infinity : hh / Math.abs(dy);
  const t = Math.min(tx, ty);
  return [b.x + dx * t, b.y + dy * t];
}

interface Arrow {
  from: string;
  to: string;
  /** The transitions this arrow stands for. */
  names: string[];
}

/** One arrow per ordered pair of states, labelled with every transition it stands for. */
function groupArrows(sm: StateMachineModel): Map<string, Arrow> {
  const arrows = new Map<string, Arrow>();
  for (const t of sm.transitions) {
    for (const from of t.from) {
      const k = `${from}\u0000${t.to}`;
      const arrow = arrows.get(k) ?? { from, to: t.to, names: [] };
      if (!arrow.names.includes(t.name)) arrow.names.push(t.name);
      arrows.set(k, arrow);
    }
  }
  return arrows;
}

function layoutStates(sm: StateMachineModel): Box[] {
  const names: string[] = sm.states.map((s) => s.name);
  const add = (n: string | undefined) => {
    if (n !== undefined && !names.includes(n)) names.push(n);
  };
  add(sm.initial);
  for (const t of sm.transitions) {
    t.from.forEach(add);
    add(t.to);
  }
  const next = new Map<string, string[]>(names.map((n) => [n, []]));
  for (const t of sm.transitions) for (const f of t.from) next.get(f)!.push(t.to);

  // Columns by longest path from the initial state (a state sits right of every state that leads to it),
  // ignoring the edges that close a cycle; states the initial state never reaches start their own walk.
  const key = (a: string, b: string) => `${a}\u0000${b}`;
  const seen = new Map<string, 'open' | 'done'>();
  const closing = new Set<string>();
  const finished: string[] = [];
  const visit = (n: string): void => {
    seen.set(n, 'open');
    for (const to of next.get(n) ?? []) {
      if (seen.get(to) === 'open') closing.add(key(n, to));
      else if (!seen.has(to)) visit(to);
    }
    seen.set(n, 'done');
    finished.push(n);
  };
  for (const root of sm.initial !== undefined ? [sm.initial, ...names] : names) if (!seen.has(root)) visit(root);
  const column = new Map<string, number>(names.map((n) => [n, 0]));
  for (const n of finished.reverse()) {
    for (const to of next.get(n) ?? []) {
      if (!closing.has(key(n, to))) column.set(to, Math.max(column.get(to)!, column.get(n)! + 1));
    }
  }

  const terminal = new Set(sm.states.filter((s) => s.terminal).map((s) => s.name));
  const columns: string[][] = [];
  for (const n of names) (columns[column.get(n)!] ??= []).push(n);
  const longestLabel = Math.max(0, ...Array.from(groupArrows(sm).values(), (a) => a.names.join(', ').length));
  const gap = Math.max(70, longestLabel * CHAR_WIDTH + 40);

  const boxes: Box[] = [];
  let x = MARGIN + START_SPACE;
  columns.forEach((members, c) => {
    const widths = members.map((n) => Math.max(80, n.length * CHAR_WIDTH + 24));
    const colWidth = Math.max(...widths);
    members.forEach((n, row) => {
      boxes.push({
        name: n,
        terminal: terminal.has(n),
        column: c,
        x: x + colWidth / 2,
        y: MARGIN + LOOP_SPACE + row * (BOX_HEIGHT + ROW_GAP) + BOX_HEIGHT / 2,
        w: widths[row]!,
      });
    });
    x += colWidth + gap;
  });
  return boxes;
}

/** A rectangle by its top-left corner. */
export interface DiagramRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DiagramPoint {
  x: number;
  y: number;
}

/** Where everything of one state diagram goes: the SVG is drawn from this, and tests check its geometry. */
export interface StateDiagramLayout {
  width: number;
  height: number;
  states: { name: string; terminal: boolean; centre: DiagramPoint; rect: DiagramRect }[];
  /** The initial-state marker (a filled circle), if the machine names an initial state. */
  start?: { centre: DiagramPoint; radius: number };
  /** Every arrow, as its SVG path and as a polyline following it closely. */
  edges: { from?: string; to: string; d: string; points: DiagramPoint[] }[];
  /** Transition labels: text centred on `centre`, occupying `rect` (halo included). */
  labels: { text: string; edge: number; centre: DiagramPoint; rect: DiagramRect }[];
}

const LABEL_HEIGHT = 14; // 12px text: ascent plus descent
const LABEL_PAD = 2; // the halo around the text
const CURVE_SAMPLES = 32;

function labelRect(cx: number, cy: number, text: string): DiagramRect {
  const width = text.length * CHAR_WIDTH + 2 * LABEL_PAD;
  const height = LABEL_HEIGHT + 2 * LABEL_PAD;
  return { x: cx - width / 2, y: cy - height / 2, width, height };
}

function quadPoints(p0: DiagramPoint, c: DiagramPoint, p1: DiagramPoint): DiagramPoint[] {
  return Array.from({ length: CURVE_SAMPLES + 1 }, (_, i) => {
    const t = i / CURVE_SAMPLES;
    const u = 1 - t;
    return { x: u * u * p0.x + 2 * u * t * c.x + t * t * p1.x, y: u * u * p0.y + 2 * u * t * c.y + t * t * p1.y };
  });
}

function cubicPoints(p0: DiagramPoint, c0: DiagramPoint, c1: DiagramPoint, p1: DiagramPoint): DiagramPoint[] {
  return Array.from({ length: CURVE_SAMPLES + 1 }, (_, i) => {
    const t = i / CURVE_SAMPLES;
    const u = 1 - t;
    const [a, b, c, d] = [u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t];
    return { x: a * p0.x + b * c0.x + c * c1.x + d * p1.x, y: a * p0.y + b * c0.y + c * c1.y + d * p1.y };
  });
}

const LABEL_CLEARANCE = 3; // free space around a label, beyond its halo
const ARROWHEAD = 10; // the marker's length and width: 8 stroke widths of 1.2
const LABEL_SPOTS = [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8]; // where along its arrow a label may sit, best first
const LABEL_OFFSETS = [0, 6, 12, 20, 30, 44, 60]; // further away from the arrow, beyond just clearing it

function grow(r: DiagramRect, by: number): DiagramRect {
  return { x: r.x - by, y: r.y - by, width: r.width + 2 * by, height: r.height + 2 * by };
}

function rectsOverlap(a: DiagramRect, b: DiagramRect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Whether the segment p–q meets the rectangle (Liang–Barsky clipping). */
function segmentMeetsRect(p: DiagramPoint, q: DiagramPoint, r: DiagramRect): boolean {
  const dx = q.x - p.x;
  const dy = q.y - p.y;
  let t0 = 0;
  let t1 = 1;
  for (const [pk, qk] of [
    [-dx, p.x - r.x],
    [dx, r.x + r.width - p.x],
    [-dy, p.y - r.y],
    [dy, r.y + r.height - p.y],
  ] as const) {
    if (pk === 0) {
      if (qk < 0) return false;
    } else if (pk < 0) t0 = Math.max(t0, qk / pk);
    else t1 = Math.min(t1, qk / pk);
    if (t0 > t1) return false;
  }
  return true;
}

/** The point at fraction t of a polyline's length, with the unit direction of the line there. */
function pointAlong(points: readonly DiagramPoint[], t: number): { at: DiagramPoint; dir: DiagramPoint } {
  const lengths = points.slice(1).map((q, i) => Math.hypot(q.x - points[i]!.x, q.y - points[i]!.y));
  let rest = t * lengths.reduce((sum, l) => sum + l, 0);
  for (let i = 0; i < lengths.length; i++) {
    const l = lengths[i]!;
    if (l === 0 || (rest > l && i < lengths.length - 1)) {
      rest -= l;
      continue;
    }
    const [p, q] = [points[i]!, points[i + 1]!];
    const dir = { x: (q.x - p.x) / l, y: (q.y - p.y) / l };
    return { at: { x: p.x + dir.x * rest, y: p.y + dir.y * rest }, dir };
  }
  return { at: points[0]!, dir: { x: 1, y: 0 } };
}

/**
 * Labels go beside their arrow, pushed off it along its normal far enough that the label's box clears
 * the line, on the outside of a curve first (above, or right of, a straight line), and only where the
 * box is clear of every arrow, state and label already placed. A label no such spot fits goes below the picture.
 */
function placeLabels(
  items: readonly { text: string; edge: number }[],
  edges: StateDiagramLayout['edges'],
  obstacles: readonly DiagramRect[],
): StateDiagramLayout['labels'] {
  const placed: StateDiagramLayout['labels'] = [];
  const free = (r: DiagramRect): boolean => {
    if (r.x < 2 || r.y < 2) return false;
    const g = grow(r, LABEL_CLEARANCE);
    return (
      !obstacles.some((o) => rectsOverlap(g, o)) &&
      !placed.some((l) => rectsOverlap(g, l.rect)) &&
      !edges.some((e) => e.points.slice(1).some((q, i) => segmentMeetsRect(e.points[i]!, q, g)))
    );
  };
  for (const { text, edge } of items) {
    const points = edges[edge]!.points;
    const size = labelRect(0, 0, text);
    const [first, last] = [points[0]!, points[points.length - 1]!];
    const chordMiddle = { x: (first.x + last.x) / 2, y: (first.y + last.y) / 2 };
    let spot: DiagramPoint | undefined;
    search: for (const extra of LABEL_OFFSETS) {
      for (const t of LABEL_SPOTS) {
        const { at, dir } = pointAlong(points, t);
        const normal = { x: -dir.y, y: dir.x };
        const bulge = (at.x - chordMiddle.x) * normal.x + (at.y - chordMiddle.y) * normal.y;
        const straightSide = Math.abs(normal.y) > 1e-6 ? -Math.sign(normal.y) : Math.sign(normal.x);
        const outside = Math.abs(bulge) > 1 ? Math.sign(bulge) : straightSide;
        const clear = (size.width / 2) * Math.abs(normal.x) + (size.height / 2) * Math.abs(normal.y) + LABEL_CLEARANCE + 0.5;
        for (const side of [outside, -outside]) {
          const centre = { x: at.x + side * normal.x * (clear + extra), y: at.y + side * normal.y * (clear + extra) };
          if (free(labelRect(centre.x, centre.y, text))) {
            spot = centre;
            break search;
          }
        }
      }
    }
    if (!spot) {
      const bottom = Math.max(
        ...obstacles.map((o) => o.y + o.height),
        ...edges.flatMap((e) => e.points.map((p) => p.y)),
        ...placed.map((l) => l.rect.y + l.rect.height),
      );
      const { at } = pointAlong(points, 0.5);
      spot = { x: Math.max(at.x, size.width / 2 + 2), y: bottom + LABEL_CLEARANCE + 1 + size.height / 2 };
    }
    placed.push({ text, edge, centre: spot, rect: labelRect(spot.x, spot.y, text) });
  }
  return placed;
}

export function getStateDiagramLayout(sm: StateMachineModel): StateDiagramLayout | undefined {
  const boxes = layoutStates(sm);
  if (boxes.length === 0) return undefined;
  const byName = new Map(boxes.map((b) => [b.name, b]));
  const arrows = groupArrows(sm);
  const edges: StateDiagramLayout['edges'] = [];
  const toLabel: { text: string; edge: number }[] = [];
  const label = (text: string) => toLabel.push({ text, edge: edges.length - 1 });
  for (const { from, to, names: transitionNames } of arrows.values()) {
    const a = byName.get(from)!;
    const b = byName.get(to)!;
    const text = transitionNames.join(', ');
    if (a === b) {
      const top = a.y - BOX_HEIGHT / 2;
      const p0 = { x: a.x - 14, y: top };
      const c0 = { x: a.x - 24, y: top - 30 };
      const c1 = { x: a.x + 24, y: top - 30 };
      const p1 = { x: a.x + 14, y: top };
      edges.push({
        from,
        to,
        d: `M${fmt(p0.x)},${fmt(p0.y)} C${fmt(c0.x)},${fmt(c0.y)} ${fmt(c1.x)},${fmt(c1.y)} ${fmt(p1.x)},${fmt(p1.y)}`,
        points: cubicPoints(p0, c0, c1, p1),
      });
      label(text);
      continue;
    }
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len = Math.hypot(dx, dy);
    const neighbours = b.column === a.column + 1 || a.column === b.column + 1 || (b.column === a.column && Math.abs(dy) <= BOX_HEIGHT + ROW_GAP);
    const paired = arrows.has(`${to}\u0000${from}`);
    let bend: number;
    if (neighbours && !paired) bend = 0;
    // Two neighbours joined both ways: two gentle arcs, one on each side of the line between them.
    else if (neighbours) bend = -26;
    // Arrows that skip a column or go further back bend well away from the boxes between their ends:
    // forward ones below when the target is lower and above otherwise, backward ones below.
    else bend = (b.column > a.column ? (dy > 0 ? 1 : -1) : -1) * 80;
    if (bend === 0) {
      const [sx, sy] = exitPoint(a, dx, dy);
      const [ex, ey] = exitPoint(b, -dx, -dy);
      edges.push({
        from,
        to,
        d: `M${fmt(sx)},${fmt(sy)} L${fmt(ex)},${fmt(ey)}`,
        points: [
          { x: sx, y: sy },
          { x: ex, y: ey },
        ],
      });
      label(text);
      continue;
    }
    const cx = (a.x + b.x) / 2 + (-dy / len) * bend;
    const cy = (a.y + b.y) / 2 + (dx / len) * bend;
    const [sx, sy] = exitPoint(a, cx - a.x, cy - a.y);
    const [ex, ey] = exitPoint(b, cx - b.x, cy - b.y);
    edges.push({
      from,
      to,
      d: `M${fmt(sx)},${fmt(sy)} Q${fmt(cx)},${fmt(cy)} ${fmt(ex)},${fmt(ey)}`,
      points: quadPoints({ x: sx, y: sy }, { x: cx, y: cy }, { x: ex, y: ey }),
    });
    label(text);
  }

  let start: StateDiagramLayout['start'];
  const initial = sm.initial !== undefined ? byName.get(sm.initial) : undefined;
  if (initial) {
    const left = initial.x - initial.w / 2;
    start = { centre: { x: left - START_SPACE + 6, y: initial.y }, radius: 6 };
    const p0 = { x: left - START_SPACE + 12, y: initial.y };
    edges.push({ to: initial.name, d: `M${fmt(p0.x)},${fmt(p0.y)} L${fmt(left)},${fmt(initial.y)}`, points: [p0, { x: left, y: initial.y }] });
  }
  const states = boxes.map((b) => ({
    name: b.name,
    terminal: b.terminal,
    centre: { x: b.x, y: b.y },
    rect: { x: b.x - b.w / 2, y: b.y - BOX_HEIGHT / 2, width: b.w, height: BOX_HEIGHT },
  }));
  const obstacles = states.map((s) => s.rect);
  // Arrowheads, by the square around their tip's half-length back along the arrow.
  for (const { points } of edges) {
    const [p, q] = [points[points.length - 2]!, points[points.length - 1]!];
    const l = Math.hypot(q.x - p.x, q.y - p.y) || 1;
    const c = { x: q.x - ((q.x - p.x) / l) * (ARROWHEAD / 2), y: q.y - ((q.y - p.y) / l) * (ARROWHEAD / 2) };
    obstacles.push({ x: c.x - ARROWHEAD / 2, y: c.y - ARROWHEAD / 2, width: ARROWHEAD, height: ARROWHEAD });
  }
  if (start) obstacles.push({ x: start.centre.x - start.radius, y: start.centre.y - start.radius, width: 2 * start.radius, height: 2 * start.radius });
  const labels = placeLabels(toLabel, edges, obstacles);
  const width = Math.max(...boxes.map((b) => b.x + b.w / 2 + MARGIN), ...labels.map((l) => l.rect.x + l.rect.width + 2));
  const height = Math.max(
    ...boxes.map((b) => b.y + BOX_HEIGHT / 2 + MARGIN + LOOP_SPACE),
    ...edges.flatMap((e) => e.points.map((p) => p.y + MARGIN)),
    ...labels.map((l) => l.rect.y + l.rect.height + 2),
  );
  return { width, height, states, ...(start ? { start } : {}), edges, labels };
}

function stateDiagramSvg(sm: StateMachineModel, index: number): string {
  const layout = getStateDiagramLayout(sm);
  if (!layout) return '';
  const { width, height } = layout;
  const marker = `servicespec-arrow-${index}`;
  const out: string[] = [];
  const caption = `State diagram of ${sm.resource}`;
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="state-diagram" role="img" aria-label="${escapeHtml(caption)}" width="${fmt(width)}" height="${fmt(height)}" viewBox="0 0 ${fmt(width)} ${fmt(height)}">`,
    `<title>${escapeHtml(caption)}</title>`,
    `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>`,
  );
  if (layout.start) out.push(`<circle cx="${fmt(layout.start.centre.x)}" cy="${fmt(layout.start.centre.y)}" r="${fmt(layout.start.radius)}" class="start"/>`);
  for (const s of layout.states) {
    const { x: left, y: top, width: w } = s.rect;
    out.push(`<g class="state${s.terminal ? ' terminal' : ''}">`);
    out.push(`<rect x="${fmt(left)}" y="${fmt(top)}" width="${fmt(w)}" height="${BOX_HEIGHT}" rx="8"/>`);
    if (s.terminal) out.push(`<rect x="${fmt(left + 3)}" y="${fmt(top + 3)}" width="${fmt(w - 6)}" height="${BOX_HEIGHT - 6}" rx="6"/>`);
    out.push(`<text x="${fmt(s.centre.x)}" y="${fmt(s.centre.y + 4)}" text-anchor="middle">${escapeHtml(s.name)}</text>`);
    out.push('</g>');
  }
  const edges = layout.edges.map((e) => `<path d="${e.d}" marker-end="url(#${marker})"/>`);
  // Text is centred on the label's middle: 12px text sits 4px below its baseline's midpoint.
  const labels = layout.labels.map(
    (l) => `<text x="${fmt(l.centre.x)}" y="${fmt(l.centre.y + 4)}" text-anchor="middle" class="label">${escapeHtml(l.text)}</text>`,
  );
  out.push(`<g class="edges">`, ...edges, '</g>', `<g class="labels">`, ...labels, '</g>', '</svg>');
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------------
// The page

const STYLE = `
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1b1b; margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 2rem 1.5rem 4rem; }
h1, h2, h3, h4 { line-height: 1.25; }
h2 { border-bottom: 1px solid #ddd; padding-bottom: .3rem; margin-top: 2.5rem; }
code { font: .9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f3f3f3; padding: .05em .3em; border-radius: 3px; }
table { border-collapse: collapse; margin: 1rem 0; display: block; overflow-x: auto; }
th, td { border: 1px solid #ccc; padding: .35rem .6rem; text-align: left; vertical-align: top; }
th { background: #f6f6f6; }
figure { margin: 1rem 0; overflow-x: auto; }
figcaption { font-size: .9em; color: #555; }
svg.state-diagram { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
svg.state-diagram .state rect { fill: #fff; stroke: #333; stroke-width: 1.3; }
svg.state-diagram .state.terminal rect { fill: #f2f2f2; }
svg.state-diagram .edges path { fill: none; stroke: #333; stroke-width: 1.2; }
svg.state-diagram .start { fill: #333; }
svg.state-diagram .label { fill: #1f4f99; paint-order: stroke; stroke: #fff; stroke-width: 4px; stroke-linejoin: round; }
`.trim();

export interface DocumentHeading {
  level: number;
  id: string;
  text: string;
}

export interface DocumentBodyOptions {
  /** Turn e-mail addresses into mailto: links and http(s) URLs into links (the console; the plain page has none). */
  links?: boolean;
}

const LINKABLE = /\b([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})\b|\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:)]/g;

/** Links in already escaped text: e-mail addresses to mailto:, http(s) URLs to themselves. */
function linkHtml(escaped: string): string {
  return escaped.replace(LINKABLE, (m: string, email: string | undefined) =>
    email !== undefined ? `<a href="mailto:${m}">${m}</a>` : `<a href="${m}" rel="noopener noreferrer">${m}</a>`,
  );
}

/** The document's blocks as HTML, and its headings (each with its id) for a table of contents. */
export function renderDocumentBody(model: ServiceModel, options: DocumentBodyOptions = {}): { html: string; headings: DocumentHeading[] } {
  const slug = slugger();
  const body: string[] = [];
  const headings: DocumentHeading[] = [];
  const inline = options.links ? (c: Inline) => linkHtml(inlineHtml(c)) : inlineHtml;
  let inSection = false;
  let diagrams = 0;
  for (const b of buildDocument(model) as readonly Block[]) {
    switch (b.kind) {
      case 'heading': {
        if (b.level <= 2 && inSection) body.push('</section>');
        if (b.level === 2) {
          body.push('<section>');
          inSection = true;
        }
        const id = slug(b.text);
        headings.push({ level: b.level, id, text: b.text });
        body.push(`<h${b.level} id="${id}">${escapeHtml(b.text)}</h${b.level}>`);
        break;
      }
      case 'paragraph':
        body.push(`<p>${inline(b.content)}</p>`);
        break;
      case 'list':
        body.push('<ul>', ...b.items.map((i) => `<li>${inline(i)}</li>`), '</ul>');
        break;
      case 'table':
        body.push(
          '<table>',
          `<thead><tr>${b.head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead>`,
          '<tbody>',
          ...b.rows.map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join('')}</tr>`),
          '</tbody>',
          '</table>',
        );
        break;
      case 'diagram': {
        const svg = stateDiagramSvg(b.machine, ++diagrams);
        if (svg) body.push('<figure>', svg, `<figcaption>States and transitions of ${escapeHtml(b.machine.resource)}.</figcaption>`, '</figure>');
        break;
      }
    }
  }
  if (inSection) body.push('</section>');
  return { html: body.join('\n'), headings };
}

/** The page's title: the document title and the service's name. */
export function getDocumentTitle(model: ServiceModel): string {
  const name = model.purpose?.name;
  return name === undefined ? DOCUMENT_TITLE : `${DOCUMENT_TITLE}: ${name}`;
}

/** The nine-part document as a standalone HTML page: the same content as renderMarkdown; deterministic. */
export function renderHtml(model: ServiceModel): string {
  const { html } = renderDocumentBody(model);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(getDocumentTitle(model))}</title>`,
    `<style>\n${STYLE}\n</style>`,
    '</head>',
    '<body>',
    '<main>',
    html,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
