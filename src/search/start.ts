// R15.4: the index is kept up to date in the background from the moment the app is idle after its
// first paint, not only once the user searches (a search then answers from a ready index). The
// search code is a separate chunk loaded here, never before the first paint (bench rows 1, 3, 8a).
export function startSearchWhenIdle(userId: string): () => void {
  let stopped = false;
  let close: (() => void) | null = null;
  const begin = () => {
    void import('./client.ts').then(({ searchClient }) => {
      if (stopped) return;
      const c = searchClient(userId);
      close = () => c.close();
    });
  };
  let cancel: () => void;
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(begin, { timeout: 3000 });
    cancel = () => cancelIdleCallback(handle);
  } else {
    const handle = setTimeout(begin, 1000);
    cancel = () => clearTimeout(handle);
  }
  return () => {
    stopped = true;
    cancel();
    close?.();
  };
}
