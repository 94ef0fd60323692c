import type { InputObjectRef } from '@pothos/core';
import type { z } from 'zod';
import { builder, type Types } from '../builder';

type BuilderTypes = PothosSchemaTypes.ExtendDefaultTypes<Types>;

/**
 * A GraphQL input type written from the zod schema its service parses (src/modules/<domain>/input.ts),
 * so an input is declared once: its fields, which are required, their descriptions (zod's
 * `.describe`), and the rules behind REST's and GraphQL's field-level `details`. Each field's GraphQL
 * type is read from its zod type; `types` names those zod cannot tell (a GraphQL enum, an ID, a
 * nested input, a field declared only to be refused).
 */

/** A GraphQL type as Pothos takes it: a scalar's name or a ref, or a list of one. */
type InputFieldType = string | object | [string | object];

interface Unwrapped {
  base: z.ZodType;
  description?: string;
}

/** Looks through optional, nullable, default and transforms to the type a client sends. */
function unwrap(schema: z.ZodType): Unwrapped {
  let current = schema;
  let description = schema.description;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType };
    if (def.innerType) current = def.innerType;
    else if (def.type === 'pipe') current = (def.in!._zod.def.type === 'transform' ? def.out : def.in)!;
    else return { base: current, description };
    description ??= current.description;
  }
}

function graphqlType(typeName: string, key: string, base: z.ZodType): InputFieldType {
  const def = base._zod.def as { type: string; element?: z.ZodType };
  switch (def.type) {
    case 'string':
      return 'String';
    case 'number':
      return (base as z.ZodNumber).isInt ? 'Int' : 'Float';
    case 'boolean':
      return 'Boolean';
    case 'date':
      return 'DateTime';
    case 'record':
      return 'JSON';
    case 'array': {
      const element = graphqlType(typeName, key, unwrap(def.element!).base);
      if (Array.isArray(element)) throw new Error(`${typeName}.${key}: a list of lists`);
      return [element];
    }
    default:
      throw new Error(
        `${typeName}.${key}: zod ${def.type} has no GraphQL type of its own; name it in \`types\``,
      );
  }
}

/** The ref is typed as what the schema accepts, so a resolver hands its service that shape. */
export function inputTypeOf<S extends z.ZodObject>(
  name: string,
  schema: S,
  options: { description?: string; types?: Record<string, InputFieldType> } = {},
): InputObjectRef<BuilderTypes, z.input<S>> {
  return builder.inputType(name, {
    description: options.description,
    fields: (t) =>
      Object.fromEntries(
        Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, field]) => {
          const { base, description } = unwrap(field);
          const type = options.types?.[key] ?? graphqlType(name, key, base);
          const required = !field.safeParse(undefined).success;
          return [key, t.field({ type: type as never, required, description })];
        }),
      ),
  }) as unknown as InputObjectRef<BuilderTypes, z.input<S>>;
}
