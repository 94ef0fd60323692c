import { Client, cacheExchange, fetchExchange, mapExchange } from '@urql/core';
import { fromCombined, isSignedOut } from './errors';

/**
 * The GraphQL client (urql): same-origin `/graphql` with the session cookie. A 401 anywhere means
 * the session is over; the app goes back to sign-in.
 */
export function createClient(onSignedOut: () => void) {
  return new Client({
    url: '/graphql',
    fetchOptions: { credentials: 'same-origin' },
    preferGetMethod: false,
    requestPolicy: 'cache-and-network',
    exchanges: [
      mapExchange({
        onError(error) {
          if (isSignedOut(fromCombined(error)) || error.response?.status === 401) onSignedOut();
        },
      }),
      cacheExchange,
      fetchExchange,
    ],
  });
}
