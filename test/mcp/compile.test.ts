import { z } from 'zod';
import { compileTools } from '../../src/mcp/compile';
import { defineTool } from '../../src/mcp/tool';
import { mcpTools } from '../../src/mcp/tools';
import { schema } from '../../src/schema';

/** Each tool's operation is checked against the schema and its input schema once, at start-up. */

const categoriesTool = (input: z.ZodObject, operation?: string) =>
  defineTool({
    name: 'probe',
    title: 'Probe',
    description: 'Probe.',
    operation:
      operation ??
      'query Probe($q: String, $sortBy: CategorySortField) { categories(q: $q, sortBy: $sortBy) { items { id } } }',
    input,
    resultKey: 'categories',
    headline: () => 'probe',
  });

describe('compileTools', () => {
  it('compiles the 12 tools and reads the scope each needs from its root field', () => {
    const compiled = compileTools(schema, mcpTools);
    expect(compiled).toHaveLength(12);
    expect(Object.fromEntries(compiled.map((c) => [c.tool.name, c.scope]))).toEqual({
      get_store_info: 'STORE_SETTINGS:READ',
      list_products: 'PRODUCTS:READ',
      get_product: 'PRODUCTS:READ',
      list_categories: 'CATEGORIES:READ',
      list_orders: 'ORDERS:READ',
      get_order: 'ORDERS:READ',
      list_customers: 'CUSTOMERS:READ',
      get_customer: 'CUSTOMERS:READ',
      list_coupons: 'COUPONS:READ',
      list_reviews: 'REVIEWS:READ',
      list_staff: 'STAFF:READ',
      get_sales_summary: 'ANALYTICS:READ',
    });
  });

  it('refuses an operation the schema does not validate, and mutations', () => {
    expect(() => compileTools(schema, [categoriesTool(z.object({}), 'query Probe { nope }')])).toThrow(
      /MCP tool probe: Cannot query field "nope"/,
    );
    expect(() =>
      compileTools(schema, [
        categoriesTool(z.object({}), 'mutation Probe { deleteCategory(id: "x") { id } }'),
      ]),
    ).toThrow(/exactly one named query/);
  });

  it('refuses an input schema that drifted from the operation’s variables or enums', () => {
    const q = z.string().optional();
    expect(() => compileTools(schema, [categoriesTool(z.object({ q }))])).toThrow(/lacks \$sortBy/);
    expect(() =>
      compileTools(schema, [categoriesTool(z.object({ q, sortBy: z.enum(['createdAt']).optional(), x: q }))]),
    ).toThrow(/must be a zod enum of createdAt, name, position/);
    expect(() =>
      compileTools(schema, [
        categoriesTool(z.object({ q, sortBy: z.enum(['createdAt', 'name', 'position']).optional(), x: q })),
      ]),
    ).toThrow(/declares no \$x/);
  });
});
