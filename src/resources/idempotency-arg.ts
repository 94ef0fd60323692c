import type { ArgBuilder } from '@pothos/core';
import type { Types } from '../builder';

type BuilderTypes = PothosSchemaTypes.ExtendDefaultTypes<Types>;

/** Every mutation takes `idempotencyKey`; src/graphql/idempotency-plugin.ts acts on it (REST: the header). */
export const idempotencyArg = (arg: ArgBuilder<BuilderTypes>) => ({
  idempotencyKey: arg.string({
    description:
      'Repeats with the same key and request get the first result (kept 24 h); another request is IDEMPOTENCY_KEY_REUSED',
  }),
});
