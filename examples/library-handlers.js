// Handlers for the custom operations of library.yaml: `servicespec serve examples/library.yaml --handlers
// examples/library-handlers.js`. A handler reads the service's own storage and returns the response body.

export const handlers = {
  /** bookAvailability: copies on the shelf now, and the earliest due date of the copies out on loan. */
  async bookAvailability({ params, storage, fail }) {
    const book = await storage.read((tx) => tx.get('Book', params.id));
    if (!book) fail('missing_resource', 'no Book with that identifier');
    const out = [];
    for (const status of ['requested', 'active', 'overdue']) {
      out.push(...(await storage.read((tx) => tx.list('Loan', { equals: { book: params.id, status }, limit: 10_000 }))));
    }
    const lent = out.filter((l) => l.status !== 'requested');
    const due = lent
      .map((l) => l.due_date)
      .filter(Boolean)
      .sort();
    return { book: book.id, copies_available: Math.max(0, book.copies - lent.length), next_due: due[0] ?? null };
  },
};
