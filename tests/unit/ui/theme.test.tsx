// @vitest-environment jsdom
// Issue 40: the theme. public/theme.js (run before the first paint) applies the choice stored on the
// device, or the system's when none is; the settings' 'Vzhľad' card stores a choice through
// src/theme/theme-choice.ts and the script applies it at once. jsdom has no matchMedia: a double
// stands in for prefers-color-scheme (the browser half is e2e/dark-mode.e2e.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppearanceCard } from '../../../src/pages/settings/AppearanceCard.tsx';
import { readThemeChoice, setThemeChoice, THEME_KEY } from '../../../src/theme/theme-choice.ts';

const BOOT = readFileSync(join(import.meta.dirname, '../../../public/theme.js'), 'utf8');

/** prefers-color-scheme as the page sees it; `set` fires 'change' like a system switch. */
function systemScheme(dark: boolean) {
  const listeners = new Set<() => void>();
  const list = {
    get matches() {
      return dark;
    },
    addEventListener: (_: string, fn: () => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
  };
  window.matchMedia = ((query: string) => {
    if (query !== '(prefers-color-scheme: dark)') throw new Error(`unexpected query ${query}`);
    return list;
  }) as unknown as typeof window.matchMedia;
  return {
    set(next: boolean) {
      dark = next;
      for (const fn of listeners) fn();
    },
  };
}

/** Runs the script as the page's <head> does (a classic script in the page's global scope). */
const boot = (): void => void runInThisContext(BOOT);
const isDark = () => document.documentElement.classList.contains('dark');
const bar = () => document.querySelector('meta[name="theme-color"]')?.getAttribute('content');

beforeEach(() => {
  localStorage.clear();
  document.documentElement.className = '';
  document.head.innerHTML = '<meta name="theme-color" content="#0f766e" />';
});
afterEach(cleanup);

describe('public/theme.js', () => {
  it('follows the system when nothing is chosen, also when the system switches', () => {
    const system = systemScheme(true);
    boot();
    expect(isDark()).toBe(true);
    expect(bar()).toBe('#0f172a');
    system.set(false);
    expect(isDark()).toBe(false);
    expect(bar()).toBe('#0f766e');
  });

  it('a stored choice wins over the system, and a system switch does not undo it', () => {
    const system = systemScheme(true);
    localStorage.setItem(THEME_KEY, 'light');
    boot();
    expect(isDark()).toBe(false);
    localStorage.setItem(THEME_KEY, 'dark');
    system.set(false);
    expect(isDark()).toBe(true);
  });

  it('treats an unknown stored value as the system', () => {
    systemScheme(true);
    localStorage.setItem(THEME_KEY, 'purple');
    boot();
    expect(isDark()).toBe(true);
    expect(readThemeChoice()).toBe('system');
  });

  it("applies setThemeChoice at once, and 'system' removes the stored choice", () => {
    systemScheme(false);
    boot();
    setThemeChoice('dark');
    expect(localStorage.getItem(THEME_KEY)).toBe('dark');
    expect(isDark()).toBe(true);
    setThemeChoice('system');
    expect(localStorage.getItem(THEME_KEY)).toBeNull();
    expect(isDark()).toBe(false);
  });

  it("applies another tab's choice (a storage event)", () => {
    systemScheme(false);
    boot();
    localStorage.setItem(THEME_KEY, 'dark');
    window.dispatchEvent(new StorageEvent('storage', { key: THEME_KEY, newValue: 'dark' }));
    expect(isDark()).toBe(true);
  });
});

describe("Nastavenia 'Vzhľad'", () => {
  it('offers Systém / Svetlý / Tmavý, checks the stored one, and a choice turns the theme at once', () => {
    systemScheme(false);
    localStorage.setItem(THEME_KEY, 'light');
    boot();
    render(<AppearanceCard />);
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Svetlý' }).checked).toBe(true);
    expect(screen.getByRole('radio', { name: /Systém/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: 'Tmavý' }));
    expect(isDark()).toBe(true);
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Tmavý' }).checked).toBe(true);
    expect(localStorage.getItem(THEME_KEY)).toBe('dark');
  });
});
