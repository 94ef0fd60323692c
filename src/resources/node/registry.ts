import type { ScopePair } from '../../access/scopes';
import type { Context } from '../../context';

/** How `node(id:)` loads one type: its own lookup, behind the pair that lookup declares. */
export interface NodeLoader {
  scope: ScopePair;
  load(ctx: Context, id: string, query?: object): Promise<{ id: string }>;
}

const loaders = new Map<string, NodeLoader>();

/** Each resource registers its type beside its own lookup, so the two cannot disagree. */
export function registerNode(typeName: string, loader: NodeLoader): void {
  if (loaders.has(typeName)) throw new Error(`node type ${typeName} registered twice`);
  loaders.set(typeName, loader);
}

export const nodeLoader = (typeName: string): NodeLoader | undefined => loaders.get(typeName);

/** Every type `node(id:)` answers, in the order they registered. */
export const registeredNodeTypes = (): string[] => [...loaders.keys()];
