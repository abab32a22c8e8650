// A datetime is stored as written (offset and digits kept) and compared by the instant it names: both engines order
// and match it by one sort key, text that compares byte-wise as the instants do (docs/runtime.md, Storage).

/** Seconds added so that every RFC 3339 instant (year 0000 to 9999, any offset) is positive and 12 digits long. */
const SHIFT = 62_167_305_600;
const DIGITS = 12;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * The sort key of an RFC 3339 date-time: its whole seconds since 1970 (UTC) plus SHIFT, zero-padded to 12 digits,
 * a dot, and the fraction's digits without trailing zeros — exact, however many digits the fraction has. Null for
 * text that is not a date-time (never stored: values are validated first).
 */
export function getInstantKey(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const m = RFC3339.exec(text);
  if (!m) return null;
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3])); // not Date.UTC: it reads years 0-99 as 1900-1999
  d.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), 0); // a leap second (:60) is the next minute's first
  const offset = m[8] === undefined ? 0 : (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10])) * 60;
  const seconds = d.getTime() / 1000 - offset + SHIFT;
  return `${String(seconds).padStart(DIGITS, '0')}.${(m[7] ?? '').replace(/0+$/, '')}`;
}

/** The same key in PostgreSQL, of a text expression (a column or a parameter). */
export function getInstantKeySql(expr: string): string {
  const whole = `extract(epoch from regexp_replace(${expr}, '\\.[0-9]+', '')::timestamptz)::bigint`;
  return `(lpad((${whole} + ${SHIFT})::text, ${DIGITS}, '0') || '.' || rtrim(coalesce(substring(${expr} from '\\.([0-9]+)'), ''), '0') COLLATE "C")`;
}

/**
 * The same key in SQLite, of a column: SQL (`unixepoch`), about 15 times faster than calling back into JS for
 * every row; `fallback` (the JS key, a function on the connection) only where SQLite reads no time (a leap second).
 */
export function getInstantKeySqlite(col: string, fallback: string): string {
  const v = `upper(${col})`;
  const dotted = `substr(${v}, 20, 1) = '.'`;
  const offset = `CASE WHEN ${dotted} THEN ltrim(substr(${v}, 21), '0123456789') ELSE substr(${v}, 20) END`;
  const fraction = `CASE WHEN ${dotted} THEN rtrim(substr(${v}, 21, length(${v}) - 20 - length(${offset})), '0') ELSE '' END`;
  // Padded by substr, not printf: printf makes '000000000000' of a NULL, and the fallback must see the NULL.
  return `coalesce(substr('${'0'.repeat(DIGITS)}' || (unixepoch(substr(${v}, 1, 19) || ${offset}) + ${SHIFT}), -${DIGITS}) || '.' || ${fraction}, ${fallback}(${col}))`;
}
