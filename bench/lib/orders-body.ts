/** A valid create body for examples/orders.yaml's Order (and the baseline's). */
export const ORDER_BODY = (customer: string) => ({
  customer,
  items: [{ sku: 'MUG-BLUE-350', quantity: 2, unit_price: 1299 }],
  amount: 2598,
  currency: 'EUR',
  shipping_address: { line1: 'Keizersgracht 1', city: 'Amsterdam', postal_code: '1015 CJ', country: 'NL' },
});
