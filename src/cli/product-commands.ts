import { readFile } from 'node:fs/promises';
import { systemContext } from '../context';
import { AppError, classifyError, notFound, validationError } from '../errors';
import { createLogger } from '../logger';
import { createProduct } from '../modules/products/service';
import { type Command, command, stringOption } from './args';

/**
 * `product import`: a catalogue brought in from a file, each product made by the same service as
 * `POST /api/v1/product` (same validation, events and read-cache invalidation), as the store's
 * system principal. Each product is its own write; the report names every one that failed.
 */
export const productCommands: Command[] = [
  command({
    name: 'product import',
    summary: 'Creates the products of a JSON file (an array of POST /api/v1/product bodies) in a store.',
    options: {
      store: { type: 'string', value: '<storeId>', description: 'The store (str_…)' },
      file: { type: 'string', value: '<path>', description: 'A JSON array of products' },
    },
    required: ['store', 'file'],
    notes: ['Exit status 1 when any product was refused; the others are created.'],
    async run({ db, writer, now, invalidateAuth }, input) {
      const storeId = stringOption(input, 'store') as string;
      const path = stringOption(input, 'file') as string;
      const store = await db.store.findUnique({ where: { id: storeId }, select: { id: true, plan: true } });
      if (!store) throw notFound('Store');
      const products = await readProducts(path);
      const ctx = systemContext(
        { prisma: db, now: () => now, invalidateAuth, storeChanged: writer.storeChanged },
        store,
        createLogger('silent'),
      );
      const created: Array<{ index: number; id: string; name: string }> = [];
      const refused: Array<{ index: number; code: string; message: string }> = [];
      for (const [index, product] of products.entries()) {
        try {
          const made = await createProduct(ctx, product);
          created.push({ index, id: made.id, name: made.name });
        } catch (error) {
          const { appError } = classifyError(error);
          refused.push({ index, code: appError.code, message: appError.message });
        }
      }
      const summary = `Created ${created.length} of ${products.length} products in store ${storeId}`;
      if (refused.length > 0)
        throw new AppError('VALIDATION_ERROR', `${summary}; ${refused.length} refused`, [
          { path: '', message: `${summary}; ${refused.length} refused:` },
          ...refused.map((r) => ({ path: `<product ${r.index}>`, message: `${r.code} ${r.message}` })),
        ]);
      return { json: { created }, text: [summary, ...created.map((p) => `  ${p.id} ${p.name}`)] };
    },
  }),
];

async function readProducts(path: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw validationError([{ path: 'file', message: `cannot be read: ${(error as Error).message}` }]);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw validationError([{ path: 'file', message: 'is not valid JSON' }]);
  }
  if (!Array.isArray(parsed)) throw validationError([{ path: 'file', message: 'must hold a JSON array' }]);
  return parsed;
}
