// The rules of the build's stylesheet that a saved frame of the chat list needs (issue 19, row 1b):
// the service worker inlines these few kilobytes instead of the whole stylesheet, so the snapshot
// page's parse and its first style pass are the frame's own, not every screen's
// (sw/list-snapshot.ts). Computed by the page when it saves the frame, from the live CSSOM.
// Invariants:
// - the subset renders the frame exactly as the whole stylesheet does: every style rule that matches
//   an element of the frame, <html> or <body> is kept (also inside @media/@supports/@container, kept
//   whatever their condition is now, so a rotated phone still gets them), and everything that is
//   not a style rule (@property, @keyframes, @font-face, layer statements) is kept as is;
// - cascade layers keep their order: every @layer block is written even when none of its rules is
//   kept, because layer order is the order of first appearance — the page that later loads the whole
//   stylesheet after this subset must see the layers in the build's order;
// - rules that only ever match an element in a state (hover, focus) or a pseudo-element are judged by
//   the element they belong to: `.x::before` is kept when `.x` is in the frame;
// - a selector the engine cannot evaluate in matches() is kept (more rules, never fewer);
// - variables: theme rules (`:root, :host { --x: … }`) keep only the custom properties the kept rules
//   read (transitively), and @property registrations only those read at all; an @supports block this
//   browser does not support is dropped (the frame is painted by the browser that saved it).

const PSEUDO_ELEMENTS =
  /^::?(?:before|after|placeholder|selection|marker|backdrop|first-line|first-letter|file-selector-button|-webkit-[\w-]+|-moz-[\w-]+)(?:\([^)]*\))?/;

/**
 * `a::before, ::placeholder, b > ::after` → the elements the rules belong to (`a, *, b > *`). Reads the
 * selector as CSS does: a backslash escapes the next character (Tailwind's `.\[mask-image\:…\,…\]`
 * holds escaped colons and commas), and only commas outside parentheses and strings separate selectors.
 */
export function withoutPseudoElements(selector: string): string {
  const parts: string[] = [];
  let part = '';
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (c === '\\') {
      part += selector.slice(i, i + 2);
      i++;
      continue;
    }
    if (quote) {
      if (c === quote) quote = null;
      part += c;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(part);
      part = '';
      continue;
    } else if (c === ':') {
      const pseudo = PSEUDO_ELEMENTS.exec(selector.slice(i));
      if (pseudo) {
        i += pseudo[0].length - 1;
        continue;
      }
    }
    part += c;
  }
  parts.push(part);
  return parts
    .map((p) => {
      const s = p.trim();
      return s === '' || /[>+~]$/.test(s) ? `${s} *`.trim() : s;
    })
    .join(', ');
}

/** Whether a style rule's selector matches one of `elements` or anything inside one of `roots`. */
function matchesFrame(selectorText: string, roots: readonly Element[], elements: readonly Element[]): boolean {
  const selector = withoutPseudoElements(selectorText);
  try {
    return elements.some((el) => el.matches(selector)) || roots.some((r) => r.querySelector(selector) !== null);
  } catch {
    return true;
  }
}

const STYLE_RULE = 1;
const MEDIA_RULE = 4;
const SUPPORTS_RULE = 12;
const CONTAINER_RULE_NAME = 'CSSContainerRule';
const LAYER_BLOCK_RULE_NAME = 'CSSLayerBlockRule';

/** The prelude of a grouping rule we descend into (`@media …`, `@layer …`), or null for any other. */
function groupPrelude(rule: CSSRule): string | null {
  if (rule.type === MEDIA_RULE) return `@media ${(rule as CSSMediaRule).media.mediaText}`;
  if (rule.type === SUPPORTS_RULE) return `@supports ${(rule as CSSSupportsRule).conditionText}`;
  const name = rule.constructor?.name;
  if (name === CONTAINER_RULE_NAME)
    return `@container ${(rule as CSSRule & { conditionText: string }).conditionText}`;
  if (name === LAYER_BLOCK_RULE_NAME) return `@layer ${(rule as CSSRule & { name: string }).name}`.trimEnd();
  return null;
}

/**
 * The rules of `rules` the frame needs, grouping rules kept around what they keep (layers always).
 * A generator that pauses after each style rule it judged (the costly step: a selector matched
 * against the frame), so criticalCssInSlices can hand the main thread back between rules.
 */
function* subset(rules: CSSRuleList, roots: readonly Element[], elements: readonly Element[]): Generator<void, Kept[]> {
  const out: Kept[] = [];
  for (const rule of Array.from(rules)) {
    if (rule.type === STYLE_RULE) {
      if (matchesFrame((rule as CSSStyleRule).selectorText, roots, elements)) out.push({ rule });
      yield;
      continue;
    }
    const prelude = groupPrelude(rule);
    if (prelude === null) {
      out.push({ rule });
      continue;
    }
    // An @supports block this browser does not support is dropped: the frame is painted by this same
    // browser (a browser update that changes the answer only costs the snapshot's styling, never the
    // app's, which loads the whole stylesheet).
    if (rule.type === SUPPORTS_RULE && !supported((rule as CSSSupportsRule).conditionText)) continue;
    const inner = yield* subset((rule as CSSGroupingRule).cssRules, roots, elements);
    const isLayer = prelude.startsWith('@layer');
    if (inner.length > 0 || isLayer) out.push({ prelude, inner });
  }
  return out;
}

type Kept = { rule: CSSRule } | { prelude: string; inner: Kept[] };

function supported(condition: string): boolean {
  try {
    return typeof CSS === 'undefined' || typeof CSS.supports !== 'function' || CSS.supports(condition);
  } catch {
    return true;
  }
}

const VAR_REF = /var\(\s*(--[\w-]+)/g;

/** Custom properties referenced (through var()) anywhere in `text`. */
function refs(text: string, into: Set<string>): void {
  for (const m of text.matchAll(VAR_REF)) into.add(m[1]!);
}

/**
 * Rules that only define theme variables (`:root, :host { --x: … }`, nothing but custom properties):
 * pruned to what is used. Any other rule is written as the engine serialises it, untouched.
 */
function isThemeRule(rule: CSSRule): rule is CSSStyleRule {
  return (
    rule.type === STYLE_RULE &&
    /^(:root|:host|html)(\s*,\s*(:root|:host|html))*$/.test((rule as CSSStyleRule).selectorText) &&
    Array.from((rule as CSSStyleRule).style).every((name) => name.startsWith('--'))
  );
}

const PROPERTY_RULE_NAME = 'CSSPropertyRule';

function flatten(kept: Kept[], into: CSSRule[] = []): CSSRule[] {
  for (const k of kept) {
    if ('rule' in k) into.push(k.rule);
    else flatten(k.inner, into);
  }
  return into;
}

/**
 * The custom properties the kept rules can read: every var() outside theme rules and @property
 * registrations, then, transitively, those the used theme variables read themselves.
 */
function usedVariables(kept: Kept[]): Set<string> {
  const all = flatten(kept);
  const used = new Set<string>();
  const theme = new Map<string, string>();
  for (const rule of all) {
    if (rule.constructor?.name === PROPERTY_RULE_NAME) continue;
    if (isThemeRule(rule)) {
      for (const name of Array.from(rule.style))
        theme.set(name, `${theme.get(name) ?? ''} ${rule.style.getPropertyValue(name)}`);
      continue;
    }
    refs(rule.cssText, used);
  }
  const queue = [...used];
  while (queue.length > 0) {
    const more = new Set<string>();
    refs(theme.get(queue.pop()!) ?? '', more);
    for (const v of more) {
      if (used.has(v)) continue;
      used.add(v);
      queue.push(v);
    }
  }
  return used;
}

function text(kept: Kept[], used: Set<string>): string {
  let out = '';
  for (const k of kept) {
    if (!('rule' in k)) {
      out += `${k.prelude}{${text(k.inner, used)}}`;
      continue;
    }
    const { rule } = k;
    if (rule.constructor?.name === PROPERTY_RULE_NAME) {
      if (used.has((rule as CSSRule & { name: string }).name)) out += rule.cssText;
    } else if (isThemeRule(rule)) {
      const decls = Array.from(rule.style)
        .filter((name) => used.has(name))
        .map(
          (name) =>
            `${name}:${rule.style.getPropertyValue(name)}${rule.style.getPropertyPriority(name) ? ' !important' : ''}`,
        );
      if (decls.length > 0) out += `${rule.selectorText}{${decls.join(';')}}`;
    } else {
      out += rule.cssText;
    }
  }
  return out;
}

/**
 * The rules of `sheet` that the frame under `root` needs, as CSS text; `elements` are the frame's
 * ancestors whose own rules it inherits or is laid out by (<html>, <body>, the worker's host).
 * `root` may be several copies of the frame (one per theme, list-snapshot.ts): a rule any of them
 * needs is kept. Null when the sheet's rules cannot be read (a cross-origin sheet).
 */
export function criticalCss(
  sheet: CSSStyleSheet,
  root: Element | readonly Element[],
  elements: readonly Element[],
): string | null {
  const steps = criticalCssSteps(sheet, root, elements);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * criticalCss run in slices of about `sliceMs` of main-thread time, each in a task of its own (issue
 * 40: the whole subset took one task of ~15 ms, blocking on Lighthouse's 4× phone, and several times
 * that on a loaded machine). The same answer as criticalCss, as long as the sheet and the elements
 * are not changed meanwhile (the list snapshot judges detached copies of its frame).
 */
export async function criticalCssInSlices(
  sheet: CSSStyleSheet,
  root: Element | readonly Element[],
  elements: readonly Element[],
  sliceMs = 4,
): Promise<string | null> {
  const steps = criticalCssSteps(sheet, root, elements);
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      sliceStart = performance.now();
    }
  }
}

function* criticalCssSteps(
  sheet: CSSStyleSheet,
  root: Element | readonly Element[],
  elements: readonly Element[],
): Generator<void, string | null> {
  let rules: CSSRuleList;
  try {
    rules = sheet.cssRules;
  } catch {
    return null;
  }
  const roots: readonly Element[] = root instanceof Element ? [root] : root;
  const kept = yield* subset(rules, roots, [...roots, ...elements]);
  yield;
  return text(kept, usedVariables(kept));
}
