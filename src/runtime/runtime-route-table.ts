// The runtime's own route table (issue 19.5): a path's segments matched against a tree of the spec's paths, so
// Fastify registers one catch-all route per path depth (`/:s0`, `/:s0/:s1`, …) instead of one per operation.
// Only simple paths are tabled (plain segments and whole-segment parameters); the matching is find-my-way's for
// them: a static segment before a parameter at each level, backtracking to the parameter when the static branch
// finds no route, a parameter matching any segment (the empty one too), case-sensitive. Fastify's router has
// already split, decoded and length-checked the segments (the catch-all's parameters).
// One difference no HTTP request can reach: every segment is now a parameter for Fastify's length check, whose
// limit is the header size (getServerOptions), and Node refuses a request line that long before routing (431); only
// `inject` could send one, and a static segment that long would be answered route_not_found with the length's detail.

/** One plain segment (unreserved characters) or one whole-segment parameter `:name`. */
const STATIC_SEGMENT = /^[A-Za-z0-9._~-]+$/;
const PARAM_SEGMENT = /^:[A-Za-z_][A-Za-z0-9_]*$/;

interface Node<T> {
  statics: Map<string, Node<T>> | undefined;
  param: Node<T> | undefined;
  leaf: { value: T; names: readonly string[] } | undefined;
}

export interface RouteMatch<T> {
  value: T;
  params: Record<string, string>;
}

export interface RouteTable<T> {
  /** The number of segments of the deepest path: catch-alls `/:s0` … `/:s0/…/:s{depth-1}` reach every path. */
  readonly depth: number;
  match(segments: readonly string[]): RouteMatch<T> | undefined;
  /** Every path's value, in the order given. */
  values(): readonly T[];
}

/** A router path's segments (`/` is one empty segment, as find-my-way reads it), or undefined when it is not simple. */
export function getSimpleSegments(routerPath: string): string[] | undefined {
  if (routerPath === '/') return [''];
  if (!routerPath.startsWith('/')) return undefined;
  const segments = routerPath.slice(1).split('/');
  for (const s of segments) if (!STATIC_SEGMENT.test(s) && !(PARAM_SEGMENT.test(s) && s !== ':__proto__')) return undefined;
  return segments;
}

/**
 * The table of the given router paths (Fastify's form, `:name` for a parameter), or undefined when one is not
 * simple or two have the same shape (`/a/:id` and `/a/:key`): those keep Fastify's own routes.
 */
export function createRouteTable<T>(paths: Iterable<readonly [routerPath: string, value: T]>): RouteTable<T> | undefined {
  const root: Node<T> = { statics: undefined, param: undefined, leaf: undefined };
  const all: T[] = [];
  let depth = 0;
  for (const [routerPath, value] of paths) {
    const segments = getSimpleSegments(routerPath);
    if (segments === undefined) return undefined;
    const names: string[] = [];
    let node = root;
    for (const s of segments) {
      if (s.startsWith(':')) {
        names.push(s.slice(1));
        node = node.param ??= { statics: undefined, param: undefined, leaf: undefined };
      } else {
        const statics = (node.statics ??= new Map());
        let next = statics.get(s);
        if (next === undefined) statics.set(s, (next = { statics: undefined, param: undefined, leaf: undefined }));
        node = next;
      }
    }
    if (node.leaf !== undefined) return undefined;
    node.leaf = { value, names };
    all.push(value);
    depth = Math.max(depth, segments.length);
  }
  return {
    depth,
    values: () => all,
    match(segments) {
      const values: string[] = [];
      const leaf = find(root, segments, 0, values);
      if (leaf === undefined) return undefined;
      const params: Record<string, string> = {};
      for (let i = 0; i < leaf.names.length; i++) params[leaf.names[i]!] = values[i]!;
      return { value: leaf.value, params };
    },
  };
}

function find<T>(node: Node<T>, segments: readonly string[], i: number, values: string[]): Node<T>['leaf'] {
  if (i === segments.length) return node.leaf;
  const s = segments[i]!;
  const next = node.statics?.get(s);
  if (next !== undefined) {
    const leaf = find(next, segments, i + 1, values);
    if (leaf !== undefined) return leaf;
  }
  if (node.param === undefined) return undefined;
  values.push(s);
  const leaf = find(node.param, segments, i + 1, values);
  if (leaf === undefined) values.pop();
  return leaf;
}

/** Fastify's router paths of the catch-alls for a table of this depth: `/:s0`, `/:s0/:s1`, … */
export function getCatchAllPaths(depth: number): string[] {
  const paths: string[] = [];
  let p = '';
  for (let i = 0; i < depth; i++) paths.push((p += `/:s${i}`));
  return paths;
}

/** The catch-alls' parameter names, made once: a name made per request would be hashed and looked up each time. */
const CATCH_ALL_NAMES: string[] = [];

/** The segments a catch-all matched, in order (its parameters `s0` … `sN`). */
export function getCatchAllSegments(params: Record<string, string>): string[] {
  const segments: string[] = [];
  for (let i = 0; ; i++) {
    const s = params[(CATCH_ALL_NAMES[i] ??= `s${i}`)];
    if (s === undefined) return segments;
    segments.push(s);
  }
}
