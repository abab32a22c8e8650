// A client generated for an older served version (`servicespec client --api-version V`): its types are that
// version's shapes, tsc --strict holds a driver to them (a current-only field is a type error), and it talks to the
// real runtime (Fastify on 127.0.0.1, SQLite in a temporary folder), which answers it in that version's shape.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateClient } from '../../src/export/export-client.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { compileSpecFile } from '../../src/program.js';
import { createAuthenticator } from '../../src/runtime/auth/auth-authenticator.js';
import { createBasicUser } from '../../src/runtime/auth/auth-credentials.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { runCli } from '../cli/cli-helpers.js';
import { buildDriver, exampleModel, ROOT, tempDir } from './helpers.js';

const NOTES = join(ROOT, 'test', 'fixtures', 'versions', 'notes.yaml');

const DRIVER = `
import { ServiceClient as LibraryV1, CURRENT_VERSION as LIBRARY_V1, type Member, type MemberCreate, type Book } from './library-v1.js';
import { ServiceClient as NotesV1, type Note as NoteV1, type NoteCreate as NoteCreateV1, type ArchiveNoteBody } from './notes-v1.js';
import { ServiceClient as NotesV15, type Note as NoteV15 } from './notes-v15.js';
import type { Order as OldOrder, EventPayloads as OrderEvents } from './orders-old.js';

// Version 1 of the library calls Member.full_name \`name\` and has no Book.language.
// @ts-expect-error version 1 has no full_name
const noFullName: MemberCreate = { card_number: '2001004217', full_name: 'Elizabeth Bennet', email: 'e@example.org' };
// @ts-expect-error version 1 has no language
type NoLanguage = Book['language'];
// @ts-expect-error version 1.0.0 of the notes calls reason \`why\`
const noReason: ArchiveNoteBody = { reason: 'done' };
// @ts-expect-error version 1.5.0 has no tags
type NoTags = NoteV15['tags'];
// Orders' version 2026-06-01 calls Order.amount \`total\`; events are sent in the current version, so their payloads keep amount.
// @ts-expect-error version 2026-06-01 has no amount
type NoAmount = OldOrder['amount'];
export type Total = OldOrder['total'];
export type PaidAmount = OrderEvents['order.paid']['amount'];

export interface Outcome {
  version: string | undefined;
  member: Member;
  read: Member;
  book: Book;
  note: NoteV1;
  archived: NoteV1;
  later: NoteV15;
}

export async function drive(libraryUrl: string, notesUrl: string, password: string): Promise<Outcome> {
  const library = new LibraryV1({ baseUrl: libraryUrl, credentials: { staff: { username: 'desk', password } } });
  const member = await library.createMember({ card_number: '2001004217', name: 'Elizabeth Bennet', email: 'e.bennet@example.org' });
  const read = await library.getMember(member.id);
  const book = await library.createBook({ isbn: '9780141439518', title: 'Pride and Prejudice', authors: ['Jane Austen'], copies: 2 });
  const notes = new NotesV1({ baseUrl: notesUrl });
  const body: NoteCreateV1 = { text: 'Buy milk', color: 'red' };
  const note = await notes.createNote(body);
  const archived = await notes.archiveNote(note.id, { why: 'bought' });
  const later = await new NotesV15({ baseUrl: notesUrl }).getNote(note.id);
  void noFullName;
  void noReason;
  return { version: LIBRARY_V1, member, read, book, note, archived, later };
}
`;

interface Outcome {
  version: string | undefined;
  member: Record<string, unknown>;
  read: Record<string, unknown>;
  book: Record<string, unknown>;
  note: Record<string, unknown>;
  archived: Record<string, unknown>;
  later: Record<string, unknown>;
}

async function serve(model: CheckedModel, dir: string, name: string): Promise<{ app: FastifyInstance; url: string; password?: string }> {
  const storage = createSqliteStorage({ path: join(dir, `${name}.db`), synchronous: 'normal' });
  const authenticator = model.authentication?.schemes.length ? await createAuthenticator(model, storage, { allowGaps: true }) : undefined;
  const app = await createService(model, { storage, ...(authenticator ? { authenticator } : {}), allowGaps: true, handlers: { bookAvailability: () => ({}) } });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  if (!authenticator) return { app, url };
  const password = 'front desk 42';
  await createBasicUser(storage, model, { username: 'desk', password, scopes: ['members:read', 'members:write', 'catalog:read', 'catalog:write'] });
  return { app, url, password };
}

function notesModel(): CheckedModel {
  const compiled = compileSpecFile(NOTES);
  if (!compiled.model || compiled.diagnostics.length > 0) throw new Error(compiled.diagnostics.map((d) => d.message).join('; '));
  return compiled.checked!;
}

describe('a client for an older served version', () => {
  const tmp = tempDir('servicespec-client-versions-');
  const apps: FastifyInstance[] = [];
  let library: { url: string; password?: string };
  let notes: { url: string };

  beforeAll(async () => {
    const l = await serve(exampleModel('library'), tmp.path, 'library');
    const n = await serve(notesModel(), tmp.path, 'notes');
    apps.push(l.app, n.app);
    library = l;
    notes = n;
  }, 60_000);

  afterAll(async () => {
    for (const app of apps) await app.close();
    tmp.remove();
  });

  it("types that version's shapes (tsc --strict) and creates and reads objects in them against the served spec", async () => {
    writeFileSync(join(tmp.path, 'library-v1.ts'), generateClient(exampleModel('library'), { apiVersion: '1' }).code);
    writeFileSync(join(tmp.path, 'notes-v1.ts'), generateClient(notesModel(), { apiVersion: '1.0.0' }).code);
    writeFileSync(join(tmp.path, 'notes-v15.ts'), generateClient(notesModel(), { apiVersion: '1.5.0' }).code);
    writeFileSync(join(tmp.path, 'orders-old.ts'), generateClient(exampleModel('orders'), { apiVersion: '2026-06-01' }).code);
    writeFileSync(join(tmp.path, 'driver.ts'), DRIVER);
    const { output, driver } = await buildDriver<{ drive: (...a: string[]) => Promise<Outcome> }>(tmp.path, [
      'library-v1.ts',
      'notes-v1.ts',
      'notes-v15.ts',
      'orders-old.ts',
      'driver.ts',
    ]);
    expect(output).toBe('');
    const o = await driver.drive(`${library.url}`, notes.url, library.password!);
    expect(o.version).toBe('1');
    expect(o.member).toMatchObject({ name: 'Elizabeth Bennet', card_number: '2001004217', active: true });
    expect(o.member).not.toHaveProperty('full_name');
    expect(o.read).toEqual(o.member);
    expect(o.book).toMatchObject({ title: 'Pride and Prejudice', copies: 2 });
    expect(o.book).not.toHaveProperty('language');
    expect(o.note).toEqual({ id: expect.any(String), status: 'open', text: 'Buy milk' });
    expect(o.archived).toEqual({ id: o.note.id, status: 'archived', text: 'Buy milk', why: 'bought' });
    expect(o.later).toEqual({ id: o.note.id, status: 'archived', content: 'Buy milk', reason: 'bought' });
    // The current version sees what the old clients wrote under its own names, with the declared default.
    const member = (await (
      await fetch(`${library.url}/v2/members/${o.member.id as string}`, {
        headers: { authorization: `Basic ${Buffer.from(`desk:${library.password!}`).toString('base64')}` },
      })
    ).json()) as Record<string, unknown>;
    expect(member).toMatchObject({ full_name: 'Elizabeth Bennet' });
    const book = (await (await fetch(`${library.url}/v2/books/${o.book.id as string}`)).json()) as Record<string, unknown>;
    expect(book.language).toBe('en');
    const note = (await (await fetch(`${notes.url}/notes/${o.note.id as string}`)).json()) as Record<string, unknown>;
    expect(note).toEqual({ id: o.note.id, status: 'archived', body: 'Buy milk', reason: 'bought' });
  }, 120_000);

  it('servicespec client --api-version V writes it; an unserved version is unknown-version (exit 2)', async () => {
    const file = join(tmp.path, 'cli-v1.ts');
    const r = await runCli(['client', NOTES, '--api-version', '1.0.0', '-o', file, '--quiet']);
    expect(r.code).toBe(0);
    const code = readFileSync(file, 'utf8');
    expect(code).toContain('export type Version = "1.0.0";');
    expect(code).toContain('export interface NoteCreate {\n  text: string;');
    const bad = await runCli(['client', NOTES, '--api-version', '3.0.0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown-version/);
    expect(bad.stderr).toContain('2.0.0, 1.5.0, 1.0.0');
    // The library API says the same as a diagnostic, with no code.
    expect(generateClient(notesModel(), { apiVersion: '3.0.0' })).toEqual({
      code: '',
      diagnostics: [expect.objectContaining({ code: 'unknown-version', severity: 'error' })],
    });
  });
});
