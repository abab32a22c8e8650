// Durations and sizes as the format writes them ("5s", "64KiB").

/** A duration as written and in milliseconds. */
export interface Duration {
  text: string;
  ms: number;
}

/** A size as written and in bytes. */
export interface Size {
  text: string;
  bytes: number;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const SIZE_UNITS: Record<string, number> = { B: 1, KB: 1000, KiB: 1024, MB: 1e6, MiB: 1024 ** 2, GB: 1e9, GiB: 1024 ** 3 };

/** "5s", "1m", "24h" → milliseconds; undefined when the text is not a duration of the format. */
export function parseDuration(text: string): Duration | undefined {
  const m = /^([0-9]+)(ms|s|m|h|d)$/.exec(text);
  if (!m) return undefined;
  return { text, ms: Number(m[1]) * DURATION_UNITS[m[2]!]! };
}

/** 65536, "64KiB", "1MB" → bytes; undefined when not a size of the format. */
export function parseSize(value: string | number): Size | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? { text: `${value} B`, bytes: value } : undefined;
  const m = /^([0-9]+)(B|KB|KiB|MB|MiB|GB|GiB)$/.exec(value);
  if (!m) return undefined;
  return { text: value, bytes: Number(m[1]) * SIZE_UNITS[m[2]!]! };
}
