// A CSS media query as React state. From 1024 px (DESKTOP_QUERY) the admin area lays out for a desktop
// and the chats show two panes (issue 40).
import { useCallback, useSyncExternalStore } from 'react';
import { DESKTOP_QUERY } from '../../sw/config.ts';

// The worker's paint snapshot needs the same breakpoint (sw/list-snapshot.ts), so it lives in sw/.
export { DESKTOP_QUERY };

export function useMedia(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}
