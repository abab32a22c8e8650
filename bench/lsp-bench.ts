// `servicespec lsp --stdio` on the generated 2,000-operation spec (bench/lib/foundation-spec.ts, as check-bench):
// the time from sending an edit (didChange, the whole text) to receiving its diagnostics (publishDiagnostics for
// that version), the server's debounce included; then hover and completion after an edit; and the server's
// resident memory over 100 edits. Target (issue 31): diagnostics within 300 ms of an edit; memory flat.
// The edits take turns: a description changed (clean), and one state no transition reaches (one warning).
//
//   node --expose-gc --import tsx bench/lsp-bench.ts     # print and replace the "lsp" section of bench/RESULTS.md
//   LSP_BENCH_EDITS=100 node --expose-gc --import tsx bench/lsp-bench.ts
// (--expose-gc: the heap after a full collection, in this process, over the server's own per-document state.)
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CompletionRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { createEditorState } from '../src/lsp/lsp-state.js';
import { writeResultsSection } from './lib/bench-results.js';
import { generateLargeSpec } from './lib/foundation-spec.js';
import { machine, median } from './lib/foundation-measure.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EDITS = Number(process.env.LSP_BENCH_EDITS ?? 100);
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

/** The process's CPU time (user + system) so far, ms: on a loaded machine the steadier figure than wall time. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

async function main(): Promise<void> {
  const load = loadavg()[0]!;
  const clean = generateLargeSpec({ resources: 400, operationsPerResource: 5 });
  const operations = (clean.match(/method: /g) ?? []).length;
  const line = '      cancelled: { description: Stopped., terminal: true }\n';
  if (!clean.includes(line)) throw new Error('the generated spec changed: no state to add a warning beside');
  const variants = [
    (i: number) => clean.replace('  summary: A generated service', `  summary: Edit ${i} of a generated service`),
    (i: number) => clean.replace(line, `${line}      orphan${i}: { description: Never reached., terminal: true }\n`),
  ];

  const child = spawn(process.execPath, ['--import', TSX, join(ROOT, 'src', 'cli', 'cli-main.ts'), 'lsp', '--stdio'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const c = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiting = new Map<number, (p: PublishDiagnosticsParams) => void>();
  c.onNotification(PublishDiagnosticsNotification.type, (p) => waiting.get(p.version ?? -1)?.(p));
  c.listen();
  await c.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: null });
  await c.sendNotification(InitializedNotification.type, {});
  const uri = 'file:///bench/generated.yaml';
  const published = (version: number) => new Promise<PublishDiagnosticsParams>((resolve) => waiting.set(version, resolve));

  let t = performance.now();
  let done = published(1);
  await c.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'yaml', version: 1, text: clean } });
  const first = await done;
  const openMs = performance.now() - t;
  if (first.diagnostics.length !== 0) throw new Error(`the clean spec has diagnostics: ${JSON.stringify(first.diagnostics[0])}`);

  const latencies: number[] = [];
  const cpuBefore = cpuMs(child.pid!);
  const rss: { edit: number; kb: number }[] = [{ edit: 0, kb: rssKb(child.pid!) }];
  for (let i = 1; i <= EDITS; i++) {
    const version = i + 1;
    const text = variants[i % 2]!(i);
    done = published(version);
    t = performance.now();
    await c.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text }] });
    const p = await done;
    latencies.push(performance.now() - t);
    if (p.diagnostics.length !== i % 2) throw new Error(`edit ${i}: ${p.diagnostics.length} diagnostics`);
    if (i % 10 === 0) rss.push({ edit: i, kb: rssKb(child.pid!) });
  }
  const cpuPerEdit = (cpuMs(child.pid!) - cpuBefore) / EDITS;
  // A hover and a completion right after an edit (the outline is built on the first request after a change).
  const hoverAt = clean.split('\n').findIndex((l) => l.startsWith('      resource: '));
  const featureMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const version = EDITS + 2 + i;
    done = published(version);
    await c.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version }, contentChanges: [{ text: variants[0]!(1000 + i) }] });
    await done;
    t = performance.now();
    await c.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: hoverAt, character: 18 } });
    await c.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: hoverAt, character: 16 } });
    featureMs.push(performance.now() - t);
  }
  await c.sendRequest(ShutdownRequest.type);
  await c.sendNotification(ExitNotification.type);
  c.dispose();

  // The server's own state, in this process: the heap after a full collection as one document takes EDITS edits.
  const gc = (globalThis as { gc?: () => void }).gc;
  const heap: { edit: number; mb: number }[] = [];
  if (gc !== undefined) {
    const state = createEditorState(uri);
    for (let i = 1; i <= EDITS; i++) {
      state.update(variants[i % 2]!(i), i);
      state.diagnostics();
      if (i % 25 === 0 || i === 10) {
        gc();
        heap.push({ edit: i, mb: process.memoryUsage().heapUsed / 1024 / 1024 });
      }
    }
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const p95 = sorted[Math.floor(sorted.length * 0.95)]!;
  const max = sorted[sorted.length - 1]!;
  const after10 = rss.find((r) => r.edit === 10)!.kb;
  const last = rss[rss.length - 1]!.kb;
  const m = machine();
  const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;
  const md = [
    '## lsp: diagnostics after an edit, on a 2,000-operation spec (issue 31)',
    '',
    `Command: \`LSP_BENCH_EDITS=${EDITS} node --expose-gc --import tsx bench/lsp-bench.ts\` — ${new Date().toISOString().slice(0, 10)}, ${m.nproc} × ${m.cpu.split(' ').slice(0, 2).join(' ')}, Node ${m.node}, load average ${load.toFixed(1)} at the start.`,
    '',
    `\`servicespec lsp --stdio\` driven over stdio by vscode-languageserver-protocol (the library VS Code's client is built on), on the generated spec of check-bench (${operations} operations, ${(clean.length / 1024).toFixed(0)} KiB). Each edit sends the whole text (didChange) and waits for publishDiagnostics of that version; edits alternate between a clean text and one with a warning (an unreachable state), so each is a full re-check by the same compile \`check\` runs. The server's debounce (40 ms) is inside every figure.`,
    '',
    '| measure | figure | target |',
    '|---|---|---|',
    `| open → diagnostics (first compile, cold code) | ${openMs.toFixed(0)} ms | |`,
    `| edit → diagnostics, median of ${EDITS} | **${median(latencies).toFixed(0)} ms** | ≤ 300 ms: ${median(latencies) <= 300 ? 'met' : 'not met'} |`,
    `| server CPU time per edit (user + system, mean of ${EDITS}; load-independent) | **${cpuPerEdit.toFixed(0)} ms** | ≤ 300 ms: ${cpuPerEdit <= 300 ? 'met' : 'not met'} |`,
    `| edit → diagnostics, p95 / max | ${p95.toFixed(0)} ms / ${max.toFixed(0)} ms | p95 ${p95 <= 300 ? 'met' : 'not met'} |`,
    `| hover + completion right after an edit (median of 5) | ${median(featureMs).toFixed(0)} ms | |`,
    `| server RSS after edits ${rss.map((r) => r.edit).join(', ')} | ${rss.map((r) => mb(r.kb)).join(', ')} | flat |`,
    heap.length > 0
      ? `| heap after a full collection, the editor state in-process, after edits ${heap.map((h) => h.edit).join(', ')} | ${heap.map((h) => `${h.mb.toFixed(1)} MB`).join(', ')} | flat: ${heap[heap.length - 1]!.mb <= heap[0]!.mb * 1.1 ? 'met' : 'not met'} (within 10%) |`
      : '| heap after a full collection | not measured (run with --expose-gc) | |',
    `| RSS after edit ${rss[rss.length - 1]!.edit} against after edit 10 | ${(((last - after10) / after10) * 100).toFixed(0)}% | flat: ${last <= after10 * 1.15 ? 'met' : 'not met'} (within 15%) |`,
  ].join('\n');
  console.log(md);
  writeResultsSection('lsp', md);
}

await main();
