import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getNamedType, isObjectType, Kind, parse, type SelectionSetNode } from 'graphql';
import { z } from 'zod';
import { seedDemoStore } from '../../prisma/seed/demo-store';
import { compileRoutes } from '../../rest/compile';
import { routeTable } from '../../rest/routes';
import { resourceFragmentOf } from '../../src/field-extensions';
import { expandResourceFragments } from '../../src/graphql/resource-fragment';
import { compileTools } from '../../src/mcp/compile';
import { mcpTools } from '../../src/mcp/tools';
import { schema } from '../../src/schema';
import { startTestServer, type TestServer } from '../helpers/server';
import { callTool, connectMcp, resultOf } from '../mcp/client';

/**
 * README "Adding a field": a resource's shape is declared once, on its GraphQL type, and REST,
 * MCP and GraphQL show the same one. Statically: every REST route and MCP tool that answers a
 * resource selects exactly its fragment (REST may add what only it shows, such as a new key's
 * secret); live: the same rows read through the three doors are equal.
 */

jest.setTimeout(60_000);

const resources = Object.values(schema.getTypeMap()).filter(
  (type) => isObjectType(type) && resourceFragmentOf(type) !== null,
);

/** A selection as paths: `id`, `category.id`, `category.name`, … */
function paths(selectionSet: SelectionSetNode | undefined, prefix = ''): string[] {
  return (selectionSet?.selections ?? []).flatMap((selection) => {
    if (selection.kind !== Kind.FIELD) throw new Error('plain fields only');
    const name = `${prefix}${(selection.alias ?? selection.name).value}`;
    return selection.selectionSet ? paths(selection.selectionSet, `${name}.`) : [name];
  });
}

/** The fragment of a resource as paths. */
const fragmentPaths = (typeName: string) => {
  const text = expandResourceFragments(schema, `{ ...${typeName}Fields }`);
  return paths((parse(text).definitions[0] as { selectionSet: SelectionSetNode }).selectionSet).sort();
};

/** The resource type a root field answers (its `items` for a page) and the selection of it. */
function answered(
  root: {
    name: { value: string };
    selectionSet?: SelectionSetNode;
  },
  rootType: 'query' | 'mutation',
) {
  const type = rootType === 'query' ? schema.getQueryType() : schema.getMutationType();
  const field = type?.getFields()[root.name.value];
  let named = field && getNamedType(field.type);
  let selectionSet = root.selectionSet;
  if (isObjectType(named) && named.name.endsWith('Page')) {
    const items = selectionSet?.selections.find((s) => s.kind === Kind.FIELD && s.name.value === 'items') as
      | { selectionSet?: SelectionSetNode }
      | undefined;
    named = getNamedType(named.getFields().items!.type);
    selectionSet = items?.selectionSet;
  }
  return { typeName: named?.name ?? '', selectionSet };
}

describe('one declaration per resource shape', () => {
  it('finds the resources of every domain', () => {
    expect(resources.map((type) => type.name).sort()).toEqual([
      'ApiKey',
      'Category',
      'Coupon',
      'Customer',
      'Order',
      'Product',
      'Review',
      'StaffMember',
      'StoreSettings',
      'WebhookDelivery',
      'WebhookEndpoint',
      'WebhookRecovery',
      // the webhook.test event's object: only its payload schema uses the fragment
      'WebhookTestEvent',
    ]);
  });

  it('every REST route answering a resource selects its fragment', () => {
    let checked = 0;
    for (const compiled of compileRoutes(schema, routeTable)) {
      const root = compiled.operation.selectionSet.selections[0];
      if (root?.kind !== Kind.FIELD) continue;
      const { typeName, selectionSet } = answered(root, compiled.operation.operation as 'query' | 'mutation');
      const resource = typeName.replace(/^Issued/, '');
      if (!resources.some((type) => type.name === resource)) continue;
      const selected = paths(selectionSet);
      expect({
        route: `${compiled.route.method} ${compiled.route.path}`,
        missing: fragmentPaths(resource).filter((p) => !selected.includes(p)),
      }).toEqual({
        route: `${compiled.route.method} ${compiled.route.path}`,
        missing: [],
      });
      checked++;
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('every MCP tool answering a resource selects exactly its fragment, and its output schema says so', () => {
    let checked = 0;
    for (const compiled of compileTools(schema, mcpTools)) {
      const root = compiled.operation.selectionSet.selections[0];
      if (root?.kind !== Kind.FIELD) continue;
      const { typeName, selectionSet } = answered(root, 'query');
      if (!resources.some((type) => type.name === typeName)) continue;
      expect({ tool: compiled.tool.name, paths: paths(selectionSet).sort() }).toEqual({
        tool: compiled.tool.name,
        paths: fragmentPaths(typeName),
      });
      const json = z.toJSONSchema(compiled.output) as {
        properties: Record<
          string,
          { properties?: Record<string, unknown>; anyOf?: { properties?: object }[] }
        >;
      };
      const result = json.properties[compiled.tool.resultKey]!;
      const item =
        (result.properties?.items as { items?: { properties?: object } } | undefined)?.items ??
        result.anyOf?.[0] ??
        result;
      expect(Object.keys((item as { properties?: object }).properties ?? {}).sort()).toEqual(
        [...new Set(fragmentPaths(typeName).map((p) => p.split('.')[0]))].sort(),
      );
      checked++;
    }
    expect(checked).toBe(11);
  });
});

describe('the same rows through the three doors', () => {
  let server: TestServer;
  let key: string;
  let mcp: { client: Client; close(): Promise<void> };

  beforeAll(async () => {
    server = await startTestServer();
    const seeded = await seedDemoStore(server.prisma, { now: server.clock.now });
    key = seeded.apiKey as string;
    mcp = await connectMcp(server, key);
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.close();
  });

  const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await server.graphql(expandResourceFragments(schema, query), variables, key);
    const body = (await response.json()) as { data?: Record<string, unknown>; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data!;
  };
  const rest = async (path: string) => {
    const response = await server.request(`/api/v1${path}`, { key });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: unknown }).data;
  };

  it.each([
    ['Product', 'products', '/product', 'list_products'],
    ['Category', 'categories', '/category', 'list_categories'],
    ['Order', 'orders', '/order/vendor', 'list_orders'],
    ['Customer', 'customers', '/customer', 'list_customers'],
    ['Coupon', 'coupons', '/coupon', 'list_coupons'],
    ['Review', 'reviews', '/review', 'list_reviews'],
    ['StaffMember', 'staffMembers', '/staff', 'list_staff'],
  ])('%s: a page of %s is the same in GraphQL, REST (%s) and MCP (%s)', async (type, field, path, tool) => {
    const viaGraphql = (await graphql(`{ ${field}(limit: 5) { items { ...${type}Fields } } }`))[field] as {
      items: unknown[];
    };
    const viaRest = await rest(`${path}?limit=5`);
    const viaMcp = resultOf<{ items: unknown[] }>(
      await callTool(mcp.client, tool, { limit: 5 }),
      tool === 'list_staff' ? 'staff' : field,
    );
    expect(viaGraphql.items.length).toBeGreaterThan(0);
    expect(viaRest).toEqual(viaGraphql.items);
    expect(viaMcp.items).toEqual(viaGraphql.items);
  });

  it.each([
    ['Product', 'product', '/product/', 'get_product'],
    ['Order', 'order', '/order/details/', 'get_order'],
    ['Customer', 'customer', '/customer/', 'get_customer'],
  ])('%s: one by id is the same in GraphQL, REST and MCP', async (type, field, path, tool) => {
    const list = (await graphql(`{ ${field}s(limit: 1) { items { id } } }`))[`${field}s`] as {
      items: { id: string }[];
    };
    const id = list.items[0]!.id;
    const viaGraphql = (await graphql(`query ($id: ID!) { ${field}(id: $id) { ...${type}Fields } }`, { id }))[
      field
    ];
    expect(await rest(`${path}${id}`)).toEqual(viaGraphql);
    expect(resultOf(await callTool(mcp.client, tool, { id }), field)).toEqual(viaGraphql);
  });

  it('the store settings are the same in GraphQL, REST and MCP', async () => {
    const viaGraphql = (await graphql('{ storeSettings { ...StoreSettingsFields } }')).storeSettings;
    expect(await rest('/store/settings')).toEqual(viaGraphql);
    expect(resultOf(await callTool(mcp.client, 'get_store_info'), 'store')).toEqual(viaGraphql);
  });
});
