import { useEffect } from 'react';
import { sk } from '../text/sk.ts';

/** Sets the tab title to '{title} – Poradňa' (or just the product name). */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} – ${sk.app.name}` : sk.app.name;
  }, [title]);
}
