import type { GraphQLSchema } from 'graphql';
import { holdsPair, refusal } from '../../access/principal';
import { builder } from '../../builder';
import { notFound } from '../../errors';
import { lookup } from '../lookup';
import { plannedSelection } from '../selection-plans';
import { nodeTypeOf } from './ids';
import { NodeRef } from './interface';
import { nodeLoader } from './registry';

builder.queryField('node', (t) =>
  t.field({
    ...lookup('object'),
    type: NodeRef,
    description:
      'Any object by its id (Relay): the same answer, scope check and NOT_FOUND as its own lookup (product(id:), order(id:), …)',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx, info) => {
      const { id } = args;
      const typeName = nodeTypeOf(id);
      const node = typeName ? nodeLoader(typeName) : undefined;
      if (!typeName || !node) throw notFound('Node');
      if (!holdsPair(ctx.principal, node.scope)) throw refusal(ctx.principal, node.scope);
      // Only a type built from a Prisma model has a query to plan (its selection, relations
      // included, in its loader's statement); asking one of a plain object type (WebhookEndpoint)
      // throws "Expected … to have a model".
      const query = hasPrismaModel(info.schema, typeName)
        ? plannedSelection({ context: ctx, info, typeName })
        : undefined;
      return node.load(ctx, id, query);
    },
  }),
);

/** Whether @pothos/plugin-prisma built the type from a model (the extension it reads itself). */
const hasPrismaModel = (schema: GraphQLSchema, typeName: string): boolean =>
  Boolean(schema.getType(typeName)?.extensions?.pothosPrismaModel);
