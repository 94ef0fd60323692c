import { type GraphQLError, locatedError } from 'graphql';
import { LoginThrottledError } from '../../src/auth/login-throttle';
import { AppError, ServiceUnavailableError } from '../../src/errors';
import { maskError } from '../../src/graphql/plugins/errors';
import { captureLogs } from '../helpers/redis-prefix';

/** The pipeline's mask: codes kept, the unexpected hidden and logged once, outages answered 503, throttles 429. */
describe('maskError', () => {
  const { logger, lines } = captureLogs('error');
  const mask = maskError(logger, new WeakSet());

  it('keeps a coded error, with its details, as the original error for the REST and MCP doors', () => {
    const original = new AppError('VALIDATION_ERROR', 'input.name: is required', [
      { path: 'input.name', message: 'is required' },
    ]);
    const masked = mask(locatedError(original, undefined, ['createProduct'])) as GraphQLError;
    expect(masked.extensions).toEqual({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'input.name', message: 'is required' }],
    });
    expect(masked.originalError).toBe(original);
    expect(masked.path).toEqual(['createProduct']);
  });

  it('hides an unexpected error as INTERNAL_ERROR and logs it', () => {
    const masked = mask(new Error('relation "Product" does not exist')) as GraphQLError;
    expect(masked.message).toBe('Internal server error');
    expect(masked.extensions.code).toBe('INTERNAL_ERROR');
    expect(lines.some((line) => line.msg === 'unexpected error in the GraphQL pipeline')).toBe(true);
  });

  it('answers the database being away during execution with HTTP 503 and Retry-After', () => {
    const masked = mask(locatedError(new ServiceUnavailableError(), undefined, ['products'])) as GraphQLError;
    expect(masked.extensions).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      http: { status: 503, headers: { 'Retry-After': expect.stringMatching(/^\d+$/) } },
    });
  });

  it('answers any error that says when to come back with its status and Retry-After (a throttled sign-in: 429)', () => {
    const masked = mask(locatedError(new LoginThrottledError(42), undefined, ['login'])) as GraphQLError;
    expect(masked.extensions).toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
      http: { status: 429, headers: { 'Retry-After': '42' } },
    });
  });
});
