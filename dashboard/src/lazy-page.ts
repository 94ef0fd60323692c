import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

// biome-ignore lint/suspicious/noExplicitAny: a page module's component, whatever its props (React.lazy's own bound)
type Page = ComponentType<any>;

/**
 * A page loaded when it is first opened (its own chunk), so pages added later do not grow the initial
 * JavaScript: `const CouponsPage = lazyPage(() => import('./pages/coupons'), 'CouponsPage')`. The app
 * shows the Loading state while the chunk arrives (the Suspense in app.tsx).
 */
export function lazyPage<M extends Record<K, Page>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K]> {
  return lazy(async () => ({ default: (await load())[name] }));
}
