// A resource the new spec declares renamed (`renamedFrom` on the resource, docs/diff.md "Renames"): reported once
// as resource-renamed, breaking as a field's rename is, and compared with itself under its new name everywhere a
// name refers to it — never as a resource removed and another added.
import { describe, expect, it } from 'vitest';
import { diffEdits, type Doc } from './diff-helpers.js';

/** examples/library.yaml's Member as Patron: the resource, its operations, Loan's reference, a payload, a version change. */
function patron(d: Doc, declared: boolean | string[] = true): void {
  d.resources.Patron = declared === false ? d.resources.Member : { renamedFrom: declared === true ? 'Member' : declared, ...d.resources.Member };
  delete d.resources.Member;
  d.resources.Loan.fields.member.to = 'Patron';
  for (const o of Object.values(d.endpoints.operations) as { resource?: string }[]) if (o.resource === 'Member') o.resource = 'Patron';
  d.events.kinds['member.joined'].payload.resource = 'Patron';
  d.versioning.supported[0].changes[0].rename_field.resource = 'Patron';
}

const summary = (report: ReturnType<typeof diffEdits>) => report.changes.map((c) => [c.code, c.subject, c.impact]);

describe('a resource renamed (renamedFrom)', () => {
  it('is one resource-renamed, placed in both specs, and nothing else changes', () => {
    const report = diffEdits(undefined, (d) => patron(d));
    expect(summary(report).filter(([code]) => code !== 'current-version-not-advanced')).toEqual([['resource-renamed', 'Member', 'breaking']]);
    const c = report.changes.find((x) => x.code === 'resource-renamed')!;
    expect(c.reason).toBe(
      "resource Member was renamed to Patron (renamedFrom): its objects are kept, but the exports name its schema Patron: code generated from them (a client's types) that names Member breaks",
    );
    expect(c.old).toMatchObject({ file: 'old.yaml', pointer: '/resources/Member' });
    expect(c.new).toMatchObject({ file: 'new.yaml', pointer: '/resources/Patron' });
    expect(c.old!.line).toBeGreaterThan(0);
    expect(c.new!.line).toBeGreaterThan(0);
  });

  it("its field changes are still reported, under the new name, and a changed path is the operation's own change", () => {
    const report = diffEdits(undefined, (d) => {
      patron(d);
      d.resources.Patron.fields.nickname = { type: 'string' };
      d.endpoints.operations.getMember.path = '/patrons/{id}';
    });
    const codes = summary(report).filter(([code]) => code !== 'current-version-not-advanced');
    expect(codes[0]).toEqual(['resource-renamed', 'Member', 'breaking']);
    expect(codes).toContainEqual(['request-field-added-required', 'Patron.nickname', 'breaking']);
    expect(codes.some(([code, subject]) => subject === 'getMember' && String(code).startsWith('operation-'))).toBe(true);
    expect(codes.map(([code]) => code)).not.toContain('resource-removed');
    expect(codes.map(([code]) => code)).not.toContain('resource-added');
  });

  it('one of several earlier names (renamedFrom: [Reader, Member]) is the rename from the old spec', () => {
    const report = diffEdits(undefined, (d) => patron(d, ['Reader', 'Member']));
    expect(summary(report).filter(([code]) => code !== 'current-version-not-advanced')).toEqual([['resource-renamed', 'Member', 'breaking']]);
  });

  it('undeclared, a new name is still a resource removed and another added', () => {
    const codes = summary(diffEdits(undefined, (d) => patron(d, false))).map(([code]) => code);
    expect(codes).toContain('resource-removed');
    expect(codes).toContain('resource-added');
    expect(codes).not.toContain('resource-renamed');
  });
});

describe('a field renamed by its own renamedFrom (as migrate reads it)', () => {
  it('is field-renamed, as a declared rename_field is, not a field removed and another added', () => {
    const report = diffEdits(undefined, (d) => {
      const member = d.resources.Member.fields;
      member.home = { ...member.address, renamedFrom: 'address' };
      delete member.address;
    });
    expect(summary(report).filter(([code]) => code !== 'current-version-not-advanced')).toEqual([['field-renamed', 'Member.address', 'breaking']]);
  });

  it('is field-renamed when the old name is one of its earlier names', () => {
    const report = diffEdits(undefined, (d) => {
      const member = d.resources.Member.fields;
      member.home = { ...member.address, renamedFrom: ['residence', 'address'] };
      delete member.address;
    });
    expect(summary(report).filter(([code]) => code !== 'current-version-not-advanced')).toEqual([['field-renamed', 'Member.address', 'breaking']]);
  });
});
