import type { Diagnostic } from './diagnostics-catalogue.js';

export type OutputFormat = 'text' | 'json';

function formatOne(d: Diagnostic): string {
  const where = d.file === undefined ? '' : `${d.file}${d.line !== undefined ? `:${d.line}:${d.column ?? 1}` : ''}: `;
  return `${where}${d.severity} ${d.code}: ${d.message}`;
}

export function formatDiagnostics(diagnostics: readonly Diagnostic[], format: OutputFormat = 'text'): string {
  if (format === 'json') return `${JSON.stringify({ diagnostics }, null, 2)}\n`;
  if (diagnostics.length === 0) return '';
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity]++;
  const summary = `${counts.error} error${counts.error === 1 ? '' : 's'}, ${counts.warning} warning${counts.warning === 1 ? '' : 's'}`;
  return `${diagnostics.map(formatOne).join('\n')}\n${summary}\n`;
}
