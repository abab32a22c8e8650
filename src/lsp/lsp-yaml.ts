// The text's YAML as the editor features see it: every key and value with its JSON pointer and its offsets.
// Read with the `yaml` package, which keeps going past errors, so a half-typed file still has an outline. Built
// only when a feature asks (completion, hover, ...), never on the diagnostics path.

import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import { joinPointer } from '../util/util-json-pointer.js';

export interface TextSpan {
  start: number;
  end: number;
}

export interface YamlEntry {
  pointer: string;
  /** The key naming this value, in a mapping (its text, and the span of that text inside any quotes). */
  key?: TextSpan & { text: string };
  /** The value's span (absent for `key:` with nothing after it). */
  value?: TextSpan;
  kind: 'map' | 'seq' | 'scalar' | 'empty';
  /** A scalar's value as text, and the span of that text inside any quotes. */
  text?: string;
  textSpan?: TextSpan;
  /** The keys of a mapping, in order. */
  children?: string[];
}

export interface YamlOutline {
  entries: ReadonlyMap<string, YamlEntry>;
  /** In document order. */
  ordered: readonly YamlEntry[];
  /** The plain data (what the loader would read, as far as the text can be read). */
  data: unknown;
}

/** The span of a scalar's text inside its quotes. */
function innerSpan(node: YamlNode, text: string): TextSpan {
  const [start, end] = node.range!;
  const q = text[start];
  if ((q === '"' || q === "'") && end - start >= 2 && text[end - 1] === q) return { start: start + 1, end: end - 1 };
  return { start, end };
}

/** Walks the document without recursion (a deep document must not overflow the stack). */
export function createYamlOutline(text: string): YamlOutline {
  const doc = parseDocument(text, { lineCounter: new LineCounter(), uniqueKeys: false, schema: 'core', merge: false, strict: false, prettyErrors: false });
  const entries = new Map<string, YamlEntry>();
  const ordered: YamlEntry[] = [];
  const stack: { node: YamlNode | null; pointer: string; key?: YamlEntry['key'] }[] = [{ node: doc.contents as YamlNode | null, pointer: '' }];
  while (stack.length > 0) {
    const { node, pointer, key } = stack.pop()!;
    const entry: YamlEntry = { pointer, kind: 'empty' };
    if (key) entry.key = key;
    if (node && node.range) {
      const [start, end] = node.range;
      if (!(isScalar(node) && node.value === null && start === end)) entry.value = { start, end };
      if (isMap(node)) {
        entry.kind = 'map';
        entry.children = [];
        const items: typeof stack = [];
        for (const pair of node.items) {
          if (!isPair(pair) || !isScalar(pair.key) || !pair.key.range) continue;
          const name = String(pair.key.value);
          entry.children.push(name);
          const span = innerSpan(pair.key as YamlNode, text);
          items.push({ node: pair.value as YamlNode | null, pointer: joinPointer(pointer, name), key: { text: name, ...span } });
        }
        stack.push(...items.reverse());
      } else if (isSeq(node)) {
        entry.kind = 'seq';
        const items: typeof stack = node.items.map((item, i) => ({ node: item as YamlNode | null, pointer: joinPointer(pointer, i) }));
        stack.push(...items.reverse());
      } else if (isScalar(node)) {
        if (node.value === null && start === end) entry.kind = 'empty';
        else {
          entry.kind = 'scalar';
          entry.text = String(node.value);
          entry.textSpan = innerSpan(node, text);
        }
      }
    }
    if (!entries.has(pointer)) {
      entries.set(pointer, entry);
      ordered.push(entry);
    }
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch {
    data = undefined;
  }
  return { entries, ordered, data };
}

/** The pointer's segments, unescaped. */
export function splitPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at a pointer in plain data. */
export function getAt(data: unknown, pointer: string): unknown {
  let v = data;
  for (const seg of splitPointer(pointer)) {
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, seg)) return undefined;
    v = (v as Record<string, unknown>)[seg];
  }
  return v;
}
