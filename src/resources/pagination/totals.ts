import type { FieldNode, FragmentDefinitionNode, GraphQLResolveInfo, SelectionSetNode } from 'graphql';

/** The Pagination fields that need the count: the rest come from the page's arguments. */
const NEEDS_COUNT = new Set(['totalResults', 'lastPage']);

/** The fields of a selection set by name, through inline fragments and fragment spreads. */
function fields(
  set: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
): FieldNode[] {
  const found: FieldNode[] = [];
  for (const selection of set?.selections ?? []) {
    if (selection.kind === 'Field') found.push(selection);
    else if (selection.kind === 'InlineFragment') found.push(...fields(selection.selectionSet, fragments));
    else found.push(...fields(fragments[selection.name.value]?.selectionSet, fragments));
  }
  return found;
}

/**
 * Whether a list field's answer shows its totals (`pagination { totalResults }` or `{ lastPage }`), so
 * that the page counts its rows only then (README "Prepared statements and the count"). REST's envelope
 * and MCP's results always select them. A field under `@skip`/`@include` counts as selected: the count
 * is skipped only when no document path could show it.
 */
export function selectsTotals(info: GraphQLResolveInfo): boolean {
  for (const list of info.fieldNodes)
    for (const pagination of fields(list.selectionSet, info.fragments))
      if (pagination.name.value === 'pagination')
        for (const field of fields(pagination.selectionSet, info.fragments))
          if (NEEDS_COUNT.has(field.name.value)) return true;
  return false;
}
