import { type GraphQLField, type GraphQLSchema, getNamedType, isObjectType } from 'graphql';
import { PAGINATION_SELECTION } from '../resources/pagination/schema';

/**
 * For fixed operations written from the schema (REST's resource routes, MCP's resource tools): a
 * root field, and its arguments passed through as variables, so an argument added to the field
 * reaches every door with no other edit.
 */

export type RootField = GraphQLField<unknown, unknown>;

export function rootField(schema: GraphQLSchema, kind: 'query' | 'mutation', name: string): RootField {
  const type = kind === 'query' ? schema.getQueryType() : schema.getMutationType();
  const field = type?.getFields()[name];
  if (!field) throw new Error(`the schema has no ${kind} field ${name}`);
  return field;
}

/** The arguments a door passes through: all but idempotencyKey, which travels as REST's header. */
export const passedArgs = (field: RootField) => field.args.filter((arg) => arg.name !== 'idempotencyKey');

/**
 * `($a: T, …)` and `(a: $a, …)`: the field's arguments as variables of the same name (`rename` for a
 * REST path parameter named otherwise), or two empty strings for a field without arguments.
 */
export function passThrough(field: RootField, rename: Record<string, string> = {}) {
  const args = passedArgs(field);
  if (args.length === 0) return { variables: '', args: '' };
  const variable = (name: string) => `$${rename[name] ?? name}`;
  return {
    variables: `(${args.map((arg) => `${variable(arg.name)}: ${arg.type}`).join(', ')})`,
    args: `(${args.map((arg) => `${arg.name}: ${variable(arg.name)}`).join(', ')})`,
  };
}

export const capitalize = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * `query <name>(…) { <alias: ><field>(…) { items { ...<Item>Fields } pagination { … } } }`: a page of a
 * list field with every argument passed through, its items selected by their resource's fragment.
 */
export function pageQuery(name: string, field: RootField, alias?: string): string {
  const page = getNamedType(field.type);
  if (!isObjectType(page) || !page.getFields().items) throw new Error(`${field.name} is not a page`);
  const item = getNamedType(page.getFields().items!.type).name;
  const { variables, args } = passThrough(field);
  const answer = alias && alias !== field.name ? `${alias}: ` : '';
  return `query ${name}${variables} {
    ${answer}${field.name}${args} { items { ...${item}Fields } ${PAGINATION_SELECTION} }
  }`;
}

/** `query <name>(…) { <field>(…) { ...<Type>Fields } }`: one resource, every argument passed through. */
export function itemQuery(name: string, field: RootField, rename: Record<string, string> = {}): string {
  const { variables, args } = passThrough(field, rename);
  return `query ${name}${variables} { ${field.name}${args} { ...${getNamedType(field.type).name}Fields } }`;
}
