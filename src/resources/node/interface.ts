import { builder } from '../../builder';
import { nodeTypeOf } from './ids';

/**
 * Relay's `Node`: every object with a store-scoped id. The ids already say their type (`prd_…`,
 * `ord_…`; src/resources/node/ids.ts), so they are used as they are, not re-encoded.
 */
export const NodeRef = builder.interfaceRef<{ id: string }>('Node').implement({
  description: 'An object with an id unique across the service; fetch any of them with node(id:)',
  fields: (t) => ({ id: t.exposeID('id') }),
  resolveType: (value) => nodeTypeOf(value.id) ?? null,
});
