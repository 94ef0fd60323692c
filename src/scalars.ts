import { builder } from './builder';
import { AppError } from './errors';

/** The schema's root types and the scalars every module's fields use. */
builder.queryType({});
builder.mutationType({});

builder.scalarType('DateTime', {
  description: 'An ISO 8601 date-time in UTC',
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
    if (Number.isNaN(date.getTime()))
      throw new AppError('VALIDATION_ERROR', 'Expected an ISO 8601 date-time');
    return date;
  },
});

builder.scalarType('JSON', {
  description: 'Any JSON value',
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.scalarType('Long', {
  description: 'A whole number up to 2^53 - 1 (counts that can outgrow a 32-bit Int)',
  serialize: (value) => Number(value),
  parseValue: (value) => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      throw new AppError('VALIDATION_ERROR', 'Expected a whole number');
    }
    return value;
  },
});
