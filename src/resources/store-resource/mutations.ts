import type { InputObjectRef } from '@pothos/core';
import type { ScopeResource } from '../../access/scopes';
import { builder, type Types } from '../../builder';
import type { Context } from '../../context';
import { requireScope } from '../../field-extensions';
import { idempotencyArg } from '../idempotency-arg';

type BuilderTypes = PothosSchemaTypes.ExtendDefaultTypes<Types>;

/** What a delete answers: the id it removed. */
export interface DeletionReceipt {
  id: string;
  deleted: boolean;
}

/** One write of a resource: its description, and the service function it runs. */
interface Write<Run> {
  description: string;
  run: Run;
}

/** The field builder's two calls used here, through plain signatures (as storeQueries does). */
interface WriteFieldBuilder {
  field(options: object): unknown;
  prismaField(options: object): unknown;
}

/**
 * The write fields of a store-scoped resource, declared once for every domain:
 * `create<Name>(input)` (the resource's WRITE), `update<Name>(id, input)` (UPDATE) and
 * `delete<Name>(id)` (DELETE, answering `Deleted<Name> { id deleted }`), each taking an
 * idempotencyKey. A domain gives the ones it has; anything else it declares beside them.
 */
export function storeMutations<Create, Update>(spec: {
  /** The resource's Prisma model and GraphQL type: `Category` → createCategory, DeletedCategory. */
  name: string;
  resource: ScopeResource;
  /** `query`: the Prisma selection the caller asked for (relations, counts), for the write's own read. */
  create?: Write<(ctx: Context, input: Create, query: object) => Promise<unknown>> & {
    input: InputObjectRef<BuilderTypes, Create>;
  };
  update?: Write<(ctx: Context, id: string, input: Update, query: object) => Promise<unknown>> & {
    input: InputObjectRef<BuilderTypes, Update>;
  };
  delete?: Write<(ctx: Context, id: string) => Promise<DeletionReceipt>>;
}) {
  const { name, resource } = spec;
  const deleted = spec.delete
    ? builder.objectRef<DeletionReceipt>(`Deleted${name}`).implement({
        fields: (t) => ({ id: t.exposeID('id'), deleted: t.exposeBoolean('deleted') }),
      })
    : undefined;
  builder.mutationFields((fieldBuilder) => {
    const t = fieldBuilder as unknown as WriteFieldBuilder;
    const arg = fieldBuilder.arg;
    const id = () => arg.id({ required: true });
    const fields: Record<string, unknown> = {};
    const { create, update } = spec;
    if (create)
      fields[`create${name}`] = t.prismaField({
        description: create.description,
        type: name,
        authScopes: requireScope(resource, 'WRITE'),
        args: { ...idempotencyArg(arg), input: arg({ type: create.input, required: true }) },
        resolve: (query: object, _root: unknown, args: { input: Create }, ctx: Context) =>
          create.run(ctx, args.input, query),
      });
    if (update)
      fields[`update${name}`] = t.prismaField({
        description: update.description,
        type: name,
        authScopes: requireScope(resource, 'UPDATE'),
        args: { ...idempotencyArg(arg), id: id(), input: arg({ type: update.input, required: true }) },
        resolve: (query: object, _root: unknown, args: { id: string; input: Update }, ctx: Context) =>
          update.run(ctx, args.id, args.input, query),
      });
    if (spec.delete && deleted) {
      const remove = spec.delete;
      fields[`delete${name}`] = t.field({
        description: remove.description,
        type: deleted,
        authScopes: requireScope(resource, 'DELETE'),
        args: { ...idempotencyArg(arg), id: id() },
        resolve: (_root: unknown, args: { id: string }, ctx: Context) => remove.run(ctx, args.id),
      });
    }
    return fields as never;
  });
}
