import { useEffect, useRef } from 'react';

/**
 * Calls `tick` every `ms` while `active` (a delivery under way, a test event just sent), so a page
 * follows work the service does in the background without the user reloading it. It gives up after
 * `maxMs` of continuous polling (a delivery stuck pending behind a disabled endpoint): the page's
 * Refresh button is there for that.
 */
export function usePollWhile(active: boolean, tick: () => void, ms = 1500, maxMs = 120_000) {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!active) return;
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > maxMs) clearInterval(timer);
      else latest.current();
    }, ms);
    return () => clearInterval(timer);
  }, [active, ms, maxMs]);
}
