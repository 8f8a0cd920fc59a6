// Empty-state grace (user-area.md section 4): the first result, if empty, is shown as empty at once;
// an empty result after a non-empty one shows as empty only after 1500 ms, and any non-empty result
// in between cancels it. `count` is undefined while nothing has loaded.
import { useEffect, useRef, useState } from 'react';

export const EMPTY_STATE_GRACE_MS = 1500;

export function useEmptyGrace(count: number | undefined, graceMs: number = EMPTY_STATE_GRACE_MS): boolean {
  const hadItems = useRef(false);
  const [graceOver, setGraceOver] = useState(false);
  const empty = count === 0;

  useEffect(() => {
    if (count === undefined) return;
    if (count > 0) {
      hadItems.current = true;
      setGraceOver(false);
      return;
    }
    if (!hadItems.current) return;
    const timer = setTimeout(() => setGraceOver(true), graceMs);
    return () => clearTimeout(timer);
  }, [count, graceMs]);

  if (!empty) return false;
  return !hadItems.current || graceOver;
}
