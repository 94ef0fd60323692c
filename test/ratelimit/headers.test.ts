import { rateLimitHeaders } from '../../src/ratelimit/headers';

describe('rateLimitHeaders', () => {
  it('describes an allowed request: limit, remaining, reset in seconds and the IETF draft pair', () => {
    expect(
      rateLimitHeaders({ allowed: true, limit: 140, remaining: 139, resetSeconds: 60, source: 'redis' }, 60),
    ).toEqual({
      'X-RateLimit-Limit': '140',
      'X-RateLimit-Remaining': '139',
      'X-RateLimit-Reset': '60',
      'RateLimit-Policy': '"default";q=140;w=60',
      RateLimit: '"default";r=139;t=60',
    });
  });

  it('adds Retry-After to a rejection', () => {
    expect(
      rateLimitHeaders(
        {
          allowed: false,
          limit: 140,
          remaining: 0,
          resetSeconds: 40,
          retryAfterSeconds: 40,
          source: 'memory',
        },
        60,
      ),
    ).toEqual({
      'X-RateLimit-Limit': '140',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '40',
      'RateLimit-Policy': '"default";q=140;w=60',
      RateLimit: '"default";r=0;t=40',
      'Retry-After': '40',
    });
  });
});
