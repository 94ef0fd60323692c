import { type GraphQLObjectType, type GraphQLSchema, getNamedType, isLeafType, isObjectType } from 'graphql';
import { type ResourceFragment, resourceFragmentOf } from '../field-extensions';

/**
 * Spreads `...<Type>Fields` in a fixed operation (a REST route's, an MCP tool's) into the resource's
 * selection, derived from its type (README "Adding a field"): its scalar and enum fields without
 * arguments, in the order the type declares them, and the relations its `resourceFragment` names.
 * Spelled out in the text rather than added as fragment definitions, so everything downstream —
 * validation, the OpenAPI document, the MCP output schemas — sees plain fields.
 */
export function expandResourceFragments(schema: GraphQLSchema, source: string): string {
  return source.replace(/\.\.\.([A-Z][A-Za-z0-9]*)Fields\b/g, (spread, typeName: string) => {
    const type = schema.getType(typeName);
    const fragment = resourceFragmentOf(type);
    if (!isObjectType(type) || !fragment)
      throw new Error(`${spread}: ${typeName} declares no resourceFragment`);
    return selectionOf(type, fragment);
  });
}

function selectionOf(type: GraphQLObjectType, { relations = {}, omit = [] }: ResourceFragment): string {
  const fields: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (field.args.length > 0 || omit.includes(field.name)) continue;
    const named = getNamedType(field.type);
    const relation = relations[field.name];
    if (isLeafType(named)) fields.push(field.name);
    else if (relation === true && isObjectType(named))
      fields.push(`${field.name} { ${selectionOf(named, {})} }`);
    else if (typeof relation === 'string') fields.push(`${field.name} { ${relation} }`);
  }
  return fields.join(' ');
}
