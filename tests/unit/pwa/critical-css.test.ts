// @vitest-environment jsdom
// The rule subset a saved frame of the chat list is painted with (src/pwa/critical-css.ts, issue 19
// row 1b). jsdom's CSSOM has style, media, supports and layer rules (no @property); the e2e
// journey (e2e/pwa-list-snapshot.e2e.ts) compares the subset with the whole sheet in Chromium.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { criticalCss, criticalCssInSlices, withoutPseudoElements } from '../../../src/pwa/critical-css.ts';

function sheetOf(css: string): CSSStyleSheet {
  const style = document.createElement('style');
  style.textContent = css;
  document.head.append(style);
  return style.sheet!;
}

/** CSS text as the engine serialises it, without whitespace: two texts with the same rules compare equal. */
function squash(css: string): string {
  const style = document.createElement('style');
  style.textContent = css;
  document.body.append(style);
  const text = Array.from(style.sheet!.cssRules, (r) => r.cssText).join('');
  style.remove();
  return text.replace(/\s+/g, '');
}

describe('withoutPseudoElements', () => {
  it('judges a pseudo-element’s rule by the element it belongs to', () => {
    expect(withoutPseudoElements('.x::before')).toBe('.x');
    expect(withoutPseudoElements('*, ::before, ::after')).toBe('*, *, *');
    expect(withoutPseudoElements('.a > ::placeholder')).toBe('.a > *');
    expect(withoutPseudoElements('input::-webkit-search-decoration')).toBe('input');
    expect(withoutPseudoElements('.btn:hover')).toBe('.btn:hover');
    expect(withoutPseudoElements('li:not(:last-child)')).toBe('li:not(:last-child)');
    // Escaped colons and commas belong to the class name (Tailwind's arbitrary values), and so do
    // commas inside :is() and strings.
    const arbitrary = String.raw`.\[mask-image\:linear-gradient\(to_right\,\#000_calc\(100\%-40px\)\,transparent\)\]`;
    expect(withoutPseudoElements(arbitrary)).toBe(arbitrary);
    expect(withoutPseudoElements(String.raw`.placeholder\:text-slate-400::placeholder`)).toBe(
      String.raw`.placeholder\:text-slate-400`,
    );
    expect(withoutPseudoElements(String.raw`.before\:x::before`)).toBe(String.raw`.before\:x`);
    expect(withoutPseudoElements(':is(.a, .b)::after, [title="x, y"]')).toBe(':is(.a, .b), [title="x, y"]');
  });
});

describe('criticalCss', () => {
  let frame: HTMLElement;
  beforeEach(() => {
    document.head.innerHTML = '';
    document.body.className = 'bg';
    document.body.innerHTML =
      '<div id="frame"><ul class="list"><li class="row">Anna</li></ul><input class="field"></div>';
    frame = document.getElementById('frame')!;
  });

  it('keeps the rules that match the frame, <html> or <body>, and drops the others', () => {
    const sheet = sheetOf(
      '.row{color:red}.unused{color:blue}html{font-size:16px}.bg{background:#eee}.list .row{margin:0}.dialog .row{margin:1px}',
    );
    const out = squash(criticalCss(sheet, frame, [document.documentElement, document.body])!);
    expect(out).toBe(squash('.row{color:red}html{font-size:16px}.bg{background:#eee}.list .row{margin:0}'));
  });

  it('keeps a rule whose class name holds escaped colons and commas (Tailwind’s arbitrary values)', () => {
    frame.querySelector('ul')!.className =
      'list [mask-image:linear-gradient(to_right,#000_calc(100%-40px),transparent)]';
    const rule = String.raw`.\[mask-image\:linear-gradient\(to_right\,\#000_calc\(100\%-40px\)\,transparent\)\]{color:red}`;
    const sheet = sheetOf(rule);
    expect(squash(criticalCss(sheet, frame, [])!)).toBe(squash(rule));
  });

  it('keeps state rules of elements in the frame only when they match now, and pseudo-element rules by their element', () => {
    const sheet = sheetOf(
      '.field::placeholder{color:gray}.missing::before{content:"x"}.row:first-child{font-weight:bold}',
    );
    const out = squash(criticalCss(sheet, frame, [])!);
    expect(out).toContain('.field::placeholder');
    expect(out).toContain('.row:first-child');
    expect(out).not.toContain('.missing');
  });

  it('keeps grouping rules whatever their condition now, with only their matching rules inside', () => {
    const sheet = sheetOf(
      '@media (min-width: 5000px){.row{padding:4px}.unused{padding:1px}}@media print{.unused{display:none}}',
    );
    const out = squash(criticalCss(sheet, frame, [])!);
    expect(out).toBe(squash('@media (min-width: 5000px){.row{padding:4px}}'));
  });

  it('writes every cascade layer, also one with nothing kept, so the layers keep the build’s order', () => {
    // Without the empty `components` block, a page that later loads the whole sheet after this subset
    // would meet `components` after `utilities` and let it win.
    const sheet = sheetOf(
      '@layer base{.row{margin:0}}@layer components{.btn{color:red}}@layer utilities{.row{color:blue}}',
    );
    const out = squash(criticalCss(sheet, frame, [])!);
    expect(out).toBe(
      squash('@layer base{.row{margin:0}}@layer components{}@layer utilities{.row{color:blue}}'),
    );
  });

  it('keeps only the theme variables the kept rules read, transitively', () => {
    const sheet = sheetOf(
      ':root, :host{--color-red:red;--color-blue:blue;--spacing:4px;--pad:calc(var(--spacing) * 2)}' +
        '.row{color:var(--color-red);padding:var(--pad)}.unused{color:var(--color-blue)}',
    );
    const out = squash(criticalCss(sheet, frame, [document.documentElement])!);
    expect(out).toContain('--color-red:red');
    expect(out).toContain('--pad:calc(var(--spacing)*2)');
    expect(out).toContain('--spacing:4px');
    expect(out).not.toContain('--color-blue');
  });

  it('leaves a rule that also sets ordinary properties on :root as the engine wrote it', () => {
    const sheet = sheetOf(':root{--unused:1px;font-size:16px}');
    expect(squash(criticalCss(sheet, frame, [document.documentElement])!)).toBe(
      squash(':root{--unused:1px;font-size:16px}'),
    );
  });
  it('gives the same subset in slices, handing the main thread back between them (issue 40)', async () => {
    const sheet = sheetOf(
      ':root{--a:1px;--b:2px}.row{margin:var(--a)}.unused{margin:var(--b)}@layer base{.list{padding:0}.dialog{padding:1px}}' +
        '@media (min-width: 5000px){.row{padding:4px}.unused{padding:1px}}.bg{color:red}',
    );
    const timers = vi.spyOn(globalThis, 'setTimeout');
    // A slice of 0 ms: a new task after every rule judged.
    const sliced = await criticalCssInSlices(sheet, frame, [document.documentElement, document.body], 0);
    expect(timers.mock.calls.length).toBeGreaterThanOrEqual(6);
    timers.mockRestore();
    expect(sliced).toBe(criticalCss(sheet, frame, [document.documentElement, document.body]));
    expect(squash(sliced!)).toContain(squash('.row{margin:var(--a)}'));
  });
});
