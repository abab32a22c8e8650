import { distance } from 'fastest-levenshtein';

/** The closest candidate to a misspelt name, if one is close enough to be a likely typo. */
export function suggest(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  const lower = name.toLowerCase();
  for (const c of candidates) {
    if (c === name) continue;
    const d = c.toLowerCase() === lower ? 0 : isAdjacentSwap(lower, c.toLowerCase()) ? 1 : distance(lower, c.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  const limit = Math.max(1, Math.floor(name.length / 3));
  return bestDistance <= limit ? best : undefined;
}

/** Whether b is a with two neighbouring characters swapped ("GTE" for "GET"), the commonest typo, which Levenshtein counts as 2. */
function isAdjacentSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i + 1 < a.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
}

/** The did-you-mean tail of a message, or ''. */
export function suggestion(name: string, candidates: Iterable<string>): string {
  const hint = suggest(name, candidates);
  return hint === undefined ? '' : `; did you mean \`${hint}\`?`;
}
