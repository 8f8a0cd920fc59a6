// The theme chosen on this device (issue 40): 'system' follows prefers-color-scheme. Stored in
// localStorage, per device and not per account (it is how this screen should look, not account data).
// Applying it is public/theme.js's alone (it runs before the first paint); this module stores the
// choice, tells that script, and reads what is shown.
import { useSyncExternalStore } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

/** Shared with public/theme.js (tests/unit/theme-boot.test.ts checks both sides agree). */
export const THEME_KEY = 'poradna:theme';
export const THEME_EVENT = 'poradna:theme';

export function readThemeChoice(): ThemeChoice {
  try {
    const v = localStorage.getItem(THEME_KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** Stores the choice ('system' removes it) and lets public/theme.js apply it at once. */
export function setThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Storage refused (private mode): nothing can be kept, and public/theme.js keeps following the system.
  }
  window.dispatchEvent(new Event(THEME_EVENT));
}

function subscribeShown(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

const shownDark = () => document.documentElement.classList.contains('dark');

/** The theme on screen now ('dark' when <html> has the class public/theme.js sets). */
export function useShownTheme(): 'light' | 'dark' {
  return useSyncExternalStore(subscribeShown, shownDark, () => false) ? 'dark' : 'light';
}
