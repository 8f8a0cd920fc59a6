import { useEffect } from 'react';
import { skShell as sk } from '../text/sk-shell.ts';

/** Sets the tab title to '{title} – Poradňa' (or just the product name). */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} – ${sk.app.name}` : sk.app.name;
  }, [title]);
}
