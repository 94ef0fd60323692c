import type { ArgBuilder, ArgumentRef, ObjectRef } from '@pothos/core';
import type { GraphQLResolveInfo } from 'graphql';
import { builder, type Types } from '../../builder';
import type { Context } from '../../context';
import { cacheableRead, type requireScope, versionedRead } from '../../field-extensions';
import { lookup } from '../lookup';
import { registerNode } from '../node/registry';
import type { PageArgs } from '../pagination/page';
import { pageArgs, pageType, SortDirectionEnum } from '../pagination/schema';
import { selectsTotals } from '../pagination/totals';
import { plannedSelection } from '../selection-plans';
import type { Selection, SortArgs, StoreRows } from './rows';

type BuilderTypes = PothosSchemaTypes.ExtendDefaultTypes<Types>;
/** One argument per filter field, of the field's type: the arguments a resolver hands the rows. */
type FilterArgs<Filter> = { [K in keyof Filter]-?: ArgumentRef<BuilderTypes, Filter[K]> };

/**
 * Pothos types each field builder per Prisma model; this one helper serves every model, so it talks to
 * the builder through these plain signatures (the schema it builds is checked by the tests, and
 * schema.graphql shows it).
 */
interface ReadFieldBuilder {
  field(options: object): unknown;
  prismaConnection(options: object, connection: object, edge: object): unknown;
}

/**
 * The three read fields of a store-scoped resource, declared once for every domain:
 * `<list>(page, limit, …filters, sortBy, sortDirection)` (docs/design.md "Pagination"), `<list>Connection(…)`
 * (Relay, with totalCount) and `<item>(id)` (nullable lookup). Item selections — a product's
 * category, an order's lines — load with the page in a fixed number of queries.
 */
export function storeQueries<Row extends { id: string }, Filter, Sort extends string>(spec: {
  /**
   * The resource's object type (builder.prismaObject). Its GraphQL name names the rest —
   * `<Name>Page`, `<Name>Connection`, `<Name>Edge`, `<Name>SortField` — and the lookup's noun ("The
   * staff member with this id" for StaffMember).
   */
  ref: ObjectRef<BuilderTypes, Row>;
  fields: { list: string; item: string };
  scope: ReturnType<typeof requireScope>;
  /** README "Read cache": only for resources whose reads depend on nothing but their store's data. */
  cacheable?: boolean;
  /**
   * README "Conditional requests": for resources whose rows (and what their types show) only
   * writeStore changes — a version ETag and a 304 before any resolver, not the read cache. Implied by
   * `cacheable`.
   */
  versioned?: boolean;
  descriptions: { list: string; connection: string };
  sortFields: readonly [Sort, ...Sort[]];
  /** Set where the enum's name predates the convention (StaffSortField). */
  sortEnumName?: string;
  /** The filter arguments the list and the connection share; their values are the rows' `Filter`. */
  filters: (arg: ArgBuilder<BuilderTypes>) => FilterArgs<Filter>;
  rows: StoreRows<Row, Filter, Sort>;
}) {
  const { rows, scope } = spec;
  const name = spec.ref.name;
  const noun = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  const extensions = spec.cacheable ? cacheableRead : spec.versioned ? versionedRead : undefined;
  const sortBy = builder.enumType(spec.sortEnumName ?? `${name}SortField`, { values: spec.sortFields });
  const page = pageType(name, spec.ref);
  registerNode(name, { scope: scope.scope, load: (ctx, id, query) => rows.get(ctx, id, query) });
  builder.queryFields((fieldBuilder) => {
    const t = fieldBuilder as unknown as ReadFieldBuilder;
    // Filters before the sort, as REST's and OpenAPI's parameters list them.
    const { page: pageArg, limit, ...sort } = pageArgs(fieldBuilder.arg, sortBy);
    return {
      [spec.fields.list]: t.field({
        type: page,
        description: spec.descriptions.list,
        authScopes: scope,
        extensions,
        args: { page: pageArg, limit, ...spec.filters(fieldBuilder.arg), ...sort },
        resolve: (_root: unknown, args: PageArgs<Sort> & Filter, ctx: Context, info: GraphQLResolveInfo) =>
          rows.page(ctx, args, plannedSelection({ context: ctx, info, path: ['items'] }), {
            count: selectsTotals(info),
          }),
      }),
      [`${spec.fields.list}Connection`]: t.prismaConnection(
        {
          type: spec.ref,
          cursor: 'id',
          description: spec.descriptions.connection,
          authScopes: scope,
          extensions,
          args: {
            ...spec.filters(fieldBuilder.arg),
            sortBy: fieldBuilder.arg({ type: sortBy }),
            sortDirection: fieldBuilder.arg({ type: SortDirectionEnum }),
          },
          totalCount: (_parent: unknown, args: Filter, ctx: Context) => rows.count(ctx, args),
          resolve: (query: Selection, _root: unknown, args: Filter & SortArgs<Sort>, ctx: Context) =>
            rows.connection(ctx, query, args),
        },
        { name: `${name}Connection` },
        { name: `${name}Edge` },
      ),
      [spec.fields.item]: t.field({
        ...lookup(noun),
        type: spec.ref,
        authScopes: scope,
        extensions,
        args: { id: fieldBuilder.arg.id({ required: true }) },
        resolve: (_root: unknown, args: { id: string }, ctx: Context, info: GraphQLResolveInfo) =>
          rows.get(ctx, args.id, plannedSelection({ context: ctx, info })),
      }),
    } as never;
  });
}
