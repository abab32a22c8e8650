// A hand-written Shopify-style products service (node:http, in memory): requests and answers wrapped in
// `{ "product": … }`, lists `{ "products": [...] }`. `fault` plants one departure from SHOP_SPEC.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PLAIN_ERRORS } from './specs.js';

export const SHOP_SPEC = `servicespec: 1
resources:
  Product:
    fields:
      id: { type: integer, readOnly: true }
      title: { type: string, minLength: 1, maxLength: 40 }
      vendor: { type: string, optional: true }
endpoints:
  envelope: { data: product }
  operations:
    createProduct: { method: POST, path: /products, action: create, resource: Product, request_envelope: { data: product } }
    getProduct: { method: GET, path: "/products/{id}", action: read, resource: Product }
    updateProduct: { method: PATCH, path: "/products/{id}", action: update, resource: Product, request_envelope: { data: product } }
    deleteProduct: { method: DELETE, path: "/products/{id}", action: delete, resource: Product, status: 200 }
    listProducts: { method: GET, path: /products, action: list, resource: Product, paging: { style: none, items: products }, envelope: none }
authentication:
  default: none
${PLAIN_ERRORS}`;

/** `bare`: an unwrapped body is taken as the product; `unwrapped`: a create answers the product bare. */
export type ShopFault = 'none' | 'bare' | 'unwrapped';

export function startShop(fault: ShopFault = 'none'): Promise<{ url: string; server: Server }> {
  const products = new Map<number, Record<string, unknown>>();
  let next = 1;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const answer = (status: number, body: unknown, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      const problem = (status: number, code: string) => answer(status, { type: 'about:blank', title: code, status, code }, 'application/problem+json');
      const url = new URL(req.url ?? '/', 'http://x');
      const one = /^\/products\/([^/]+)$/.exec(url.pathname);
      if (url.pathname !== '/products' && !one) return problem(404, 'not_found');
      const allowed = one ? ['GET', 'PATCH', 'DELETE'] : ['GET', 'POST'];
      if (!allowed.includes(req.method ?? '')) {
        res.setHeader('allow', allowed.join(', '));
        return problem(405, 'not_allowed');
      }
      /** The product the body holds (validated), or the answer refusing it. */
      const read = (create: boolean): Record<string, unknown> | undefined => {
        if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return void problem(415, 'not_json');
        let b: unknown;
        try {
          b = JSON.parse(text);
        } catch {
          return void problem(400, 'bad_body');
        }
        if (typeof b !== 'object' || b === null || Array.isArray(b)) return void problem(422, 'invalid');
        let p = (b as Record<string, unknown>).product;
        if (Object.keys(b).length !== 1 || p === undefined) {
          if (fault !== 'bare') return void problem(422, 'invalid');
          p = b;
        }
        if (typeof p !== 'object' || p === null || Array.isArray(p)) return void problem(422, 'invalid');
        const { title, vendor, ...rest } = p as Record<string, unknown>;
        if (Object.keys(rest).length > 0) return void problem(422, 'invalid');
        if ((create || title !== undefined) && (typeof title !== 'string' || [...title].length < 1 || [...title].length > 40))
          return void problem(422, 'invalid');
        if (vendor !== undefined && typeof vendor !== 'string') return void problem(422, 'invalid');
        return { ...(title !== undefined ? { title } : {}), ...(vendor !== undefined ? { vendor } : {}) };
      };
      if (!one) {
        if (req.method === 'GET') return answer(200, { products: [...products.values()] });
        const p = read(true);
        if (!p) return;
        const made = { id: next++, ...p };
        products.set(made.id, made);
        res.setHeader('location', `/products/${made.id}`);
        return answer(201, fault === 'unwrapped' ? made : { product: made });
      }
      const id = /^[0-9]+$/.test(one[1]!) ? Number(one[1]) : undefined;
      const found = id === undefined ? undefined : products.get(id);
      if (!found) return problem(404, 'not_found');
      if (req.method === 'GET') return answer(200, { product: found });
      if (req.method === 'DELETE') {
        products.delete(id!);
        // Shopify's: 200 with an empty object (the spec's delete answers 200 with no body; import reads it so).
        return answer(200, {});
      }
      const p = read(false);
      if (!p) return;
      Object.assign(found, p);
      return answer(200, { product: found });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}
