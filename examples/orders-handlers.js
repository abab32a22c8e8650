// Handlers for the custom operations of orders.yaml: `servicespec serve examples/orders.yaml --handlers
// examples/orders-handlers.js`. A handler receives the validated request and returns the response body,
// which is checked against the operation's declared response shape.

/** How long a quoted price holds. */
const QUOTE_VALID_MS = 15 * 60 * 1000;

/** The shop's price list, in minor currency units per unit. */
const PRICES = new Map([
  ['MUG-BLUE-350', 1299],
  ['MUG-RED-350', 1299],
  ['TEAPOT-1L', 3499],
]);

export const handlers = {
  /** quote: the total for a basket, without placing an order. */
  quote({ body, fail }) {
    let amount = 0;
    for (const item of body.items) {
      const price = PRICES.get(item.sku);
      if (price === undefined) fail('validation', `unknown sku ${item.sku}`);
      amount += price * item.quantity;
    }
    return { amount, currency: body.currency, valid_until: new Date(Date.now() + QUOTE_VALID_MS).toISOString() };
  },
};
