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
    const base = text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'section';
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
      boxes.push({ name: n, terminal: terminal.has(n), column: c, x: x + colWidth / 2, y: MARGIN + LOOP_SPACE + row * (BOX_HEIGHT + ROW_GAP) + BOX_HEIGHT / 2, w: widths[row]! });
    });
    x += colWidth + gap;
  });
  return boxes;
}

function stateDiagramSvg(sm: StateMachineModel, index: number): string {
  const boxes = layoutStates(sm);
  if (boxes.length === 0) return '';
  const byName = new Map(boxes.map((b) => [b.name, b]));
  const marker = `servicespec-arrow-${index}`;
  const width = Math.max(...boxes.map((b) => b.x + b.w / 2)) + MARGIN;
  const height = Math.max(...boxes.map((b) => b.y + BOX_HEIGHT / 2)) + MARGIN + LOOP_SPACE;
  const out: string[] = [];
  const caption = `State diagram of ${sm.resource}`;
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="state-diagram" role="img" aria-label="${escapeHtml(caption)}" width="${fmt(width)}" height="${fmt(height)}" viewBox="0 0 ${fmt(width)} ${fmt(height)}">`,
    `<title>${escapeHtml(caption)}</title>`,
    `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker></defs>`,
  );

  const arrows = groupArrows(sm);
  const edges: string[] = [];
  const labels: string[] = [];
  const label = (x: number, y: number, text: string, anchor = 'middle') =>
    labels.push(`<text x="${fmt(x)}" y="${fmt(y)}" text-anchor="${anchor}" class="label">${escapeHtml(text)}</text>`);
  for (const { from, to, names: transitionNames } of arrows.values()) {
    const a = byName.get(from)!;
    const b = byName.get(to)!;
    const text = transitionNames.join(', ');
    if (a === b) {
      const top = a.y - BOX_HEIGHT / 2;
      edges.push(`<path d="M${fmt(a.x - 14)},${fmt(top)} C${fmt(a.x - 24)},${fmt(top - 30)} ${fmt(a.x + 24)},${fmt(top - 30)} ${fmt(a.x + 14)},${fmt(top)}" marker-end="url(#${marker})"/>`);
      label(a.x, top - 26, text);
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
    else bend = (b.column > a.column ? (dy > 0 ? 1 : -1) : -1) * 64;
    if (bend === 0) {
      const [sx, sy] = exitPoint(a, dx, dy);
      const [ex, ey] = exitPoint(b, -dx, -dy);
      edges.push(`<path d="M${fmt(sx)},${fmt(sy)} L${fmt(ex)},${fmt(ey)}" marker-end="url(#${marker})"/>`);
      if (dx === 0) label((sx + ex) / 2 + 6, (sy + ey) / 2 + 4, text, 'start');
      else label((sx + ex) / 2, (sy + ey) / 2 - 5, text);
      continue;
    }
    const cx = (a.x + b.x) / 2 + (-dy / len) * bend;
    const cy = (a.y + b.y) / 2 + (dx / len) * bend;
    const [sx, sy] = exitPoint(a, cx - a.x, cy - a.y);
    const [ex, ey] = exitPoint(b, cx - b.x, cy - b.y);
    edges.push(`<path d="M${fmt(sx)},${fmt(sy)} Q${fmt(cx)},${fmt(cy)} ${fmt(ex)},${fmt(ey)}" marker-end="url(#${marker})"/>`);
    const [lx, ly] = [(sx + 2 * cx + ex) / 4, (sy + 2 * cy + ey) / 4];
    label(lx, ly + (cy > (a.y + b.y) / 2 ? 12 : -5), text);
  }

  const initial = sm.initial !== undefined ? byName.get(sm.initial) : undefined;
  if (initial) {
    const left = initial.x - initial.w / 2;
    out.push(`<circle cx="${fmt(left - START_SPACE + 6)}" cy="${fmt(initial.y)}" r="6" class="start"/>`);
    edges.push(`<path d="M${fmt(left - START_SPACE + 12)},${fmt(initial.y)} L${fmt(left)},${fmt(initial.y)}" marker-end="url(#${marker})"/>`);
  }
  for (const b of boxes) {
    const left = b.x - b.w / 2;
    const top = b.y - BOX_HEIGHT / 2;
    out.push(`<g class="state${b.terminal ? ' terminal' : ''}">`);
    out.push(`<rect x="${fmt(left)}" y="${fmt(top)}" width="${fmt(b.w)}" height="${BOX_HEIGHT}" rx="8"/>`);
    if (b.terminal) out.push(`<rect x="${fmt(left + 3)}" y="${fmt(top + 3)}" width="${fmt(b.w - 6)}" height="${BOX_HEIGHT - 6}" rx="6"/>`);
    out.push(`<text x="${fmt(b.x)}" y="${fmt(b.y + 4)}" text-anchor="middle">${escapeHtml(b.name)}</text>`);
    out.push('</g>');
  }
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
  return escaped.replace(LINKABLE, (m: string, email: string | undefined) => (email !== undefined ? `<a href="mailto:${m}">${m}</a>` : `<a href="${m}" rel="noopener noreferrer">${m}</a>`));
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
