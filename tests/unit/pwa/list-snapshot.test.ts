// @vitest-environment jsdom
// The chat list's paint snapshot (sw/list-snapshot.ts): what the page saves, when the worker paints
// it into the shell, and that it dies with the session.
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  readMirroredSession,
  writeMirroredSession,
  type MirroredSession,
} from '../../../sync/background/session-store.ts';
import {
  deferEntryModule,
  readListSnapshotAndSession,
  shellWithSnapshot,
  SNAPSHOT_MAX_BYTES,
  SNAPSHOT_MAX_RULES_BYTES,
  snapshotRules,
  writeListSnapshot,
  type ListSnapshot,
} from '../../../sw/list-snapshot.ts';
import { captureListSnapshot } from '../../../src/pwa/list-snapshot.ts';

const SHELL =
  '<!doctype html><html lang="sk"><head><link rel="modulepreload" crossorigin href="/assets/react-x.js">\n' +
  '<link rel="stylesheet" crossorigin href="/assets/index-abc.css"></head>' +
  '<body class="bg-slate-50 text-slate-900">\n<div id="root"></div><script type="module" crossorigin src="/assets/index-def.js"></script></body></html>';
const session: MirroredSession = {
  url: 'http://x',
  anonKey: 'k',
  userId: 'u1',
  accessToken: 't',
  expiresAt: 2e9,
};
const snap: ListSnapshot = {
  userId: 'u1',
  css: '/assets/index-abc.css',
  html: '<ul><li>Anna &amp; spol.</li></ul>',
  savedAt: 1,
};

describe('shellWithSnapshot (the worker side)', () => {
  it('paints the snapshot first thing in the body, inert and hidden from assistive technology', () => {
    const out = shellWithSnapshot(SHELL, snap, session)!;
    expect(out).not.toBeNull();
    const doc = new DOMParser().parseFromString(out, 'text/html');
    const host = doc.body.firstElementChild!;
    expect(host.id).toBe('list-snapshot');
    expect(host.getAttribute('aria-hidden')).toBe('true');
    expect(host.hasAttribute('inert')).toBe(true);
    expect(host.textContent).toBe('Anna & spol.');
    // The shell is kept around it: root and stylesheet; the entry module is started by the boot
    // script (sw/snapshot-boot.ts) two frames after DOMContentLoaded, so its evaluation cannot hold
    // the snapshot's first frame. No inline script: the app's CSP is script-src 'self'.
    expect(doc.getElementById('root')).not.toBeNull();
    expect(out.replace(/<div id="list-snapshot"[^>]*>/, '').replace(`${snap.html}</div>`, '')).toBe(
      deferEntryModule(SHELL),
    );
    expect(out).not.toContain('<script type="module"');
    const scripts = [...doc.querySelectorAll('script')];
    expect(scripts.every((s) => s.hasAttribute('src') && s.textContent === '')).toBe(true);
    const boot = doc.querySelector<HTMLScriptElement>('script[src="/snapshot-boot.js"]')!;
    expect(boot.defer).toBe(true);
    // It starts the entry with its crossorigin mode, and removes the painting after 5 s even if the
    // app never starts.
    // The entry's module preloads go with it (started by the boot script, not by the parse).
    expect({ ...boot.dataset }).toEqual({
      entry: '/assets/index-def.js',
      crossorigin: '',
      preload: '/assets/react-x.js',
      host: 'list-snapshot',
      maxShow: '5000',
    });
    expect(doc.querySelector('link[rel="modulepreload"]')).toBeNull();
  });

  it('inlines only the frame’s own rules when it was saved with them; the boot script adds the whole sheet', () => {
    const rules = '.row{color:red}';
    const out = shellWithSnapshot(SHELL, { ...snap, rules }, session, '.whole{}')!;
    const doc = new DOMParser().parseFromString(out, 'text/html');
    const styles = doc.querySelectorAll('style');
    expect(styles).toHaveLength(1);
    expect(styles[0]!.textContent).toBe(rules);
    expect(styles[0]!.hasAttribute('data-snapshot-css')).toBe(true);
    // No stylesheet link the parser could fetch (Chromium's preload scanner fetches even a disabled
    // one): the boot script names it and adds it after the first frame.
    expect(doc.querySelector('link[rel="stylesheet"]')).toBeNull();
    expect(doc.querySelector<HTMLScriptElement>('script[src="/snapshot-boot.js"]')!.dataset.stylesheet).toBe(
      snap.css,
    );
    expect(snapshotRules({ rules })).toBe(rules);
    // Rules that could end the element early, or too many of them, are not used: the whole sheet is.
    for (const bad of [
      'a{}</style><script>x()</script>',
      'a{}</STYLE >',
      'a{}'.repeat(SNAPSHOT_MAX_RULES_BYTES),
    ]) {
      expect(snapshotRules({ rules: bad })).toBeNull();
      const whole = new DOMParser().parseFromString(
        shellWithSnapshot(SHELL, { ...snap, rules: bad }, session, '.whole{}')!,
        'text/html',
      );
      expect(whole.querySelector('style')?.textContent).toBe('.whole{}');
      expect(whole.querySelector('style')?.hasAttribute('data-snapshot-css')).toBe(false);
    }
  });

  it('inlines the build’s stylesheet, so the first paint waits for no second answer of the worker', () => {
    const css = '.bg-slate-50{background:#f8fafc}';
    const out = shellWithSnapshot(SHELL, snap, session, css)!;
    const doc = new DOMParser().parseFromString(out, 'text/html');
    expect(doc.querySelector('style')?.textContent).toBe(css);
    // The link stays, disabled: it names the build for the next save and for the bundler's preloads.
    const link = doc.querySelector<HTMLLinkElement>('link[rel="stylesheet"]')!;
    expect(link.getAttribute('href')).toBe(snap.css);
    expect(link.hasAttribute('disabled')).toBe(true);
    expect(doc.querySelectorAll('link[rel="stylesheet"]')).toHaveLength(1);
    // Without the text, or with a text that could end the element early, the link stays as it was.
    for (const text of [null, '', 'a{}</style><script>x()</script>', 'a{}</STYLE >']) {
      const kept = new DOMParser().parseFromString(
        shellWithSnapshot(SHELL, snap, session, text)!,
        'text/html',
      );
      expect(kept.querySelector('link[rel="stylesheet"]')?.hasAttribute('disabled')).toBe(false);
      expect(kept.querySelector('style')).toBeNull();
    }
  });

  it('paints a frame only at a width of the layout it was saved in (a tablet turned, a window resized)', () => {
    const guard = (wide?: boolean) => {
      const doc = new DOMParser().parseFromString(
        shellWithSnapshot(SHELL, { ...snap, ...(wide === undefined ? {} : { wide }) }, session)!,
        'text/html',
      );
      return doc.querySelector('#list-snapshot > style')?.textContent ?? null;
    };
    // A phone's frame is hidden from 1024 px, where the chats show two panes; the two panes below it.
    expect(guard(false)).toBe('@media (min-width: 1024px){#list-snapshot{display:none}}');
    expect(guard(true)).toBe('@media not all and (min-width: 1024px){#list-snapshot{display:none}}');
    // A frame saved before the layout was recorded is painted as before.
    expect(guard(undefined)).toBeNull();
  });

  it('never paints another user’s list, or any list without a session', () => {
    expect(shellWithSnapshot(SHELL, snap, { ...session, userId: 'u2' })).toBeNull();
    expect(shellWithSnapshot(SHELL, snap, null)).toBeNull();
    expect(shellWithSnapshot(SHELL, null, session)).toBeNull();
  });

  it('never paints a frame drawn by another build, an empty or oversized frame, or into a shell without a body', () => {
    expect(shellWithSnapshot(SHELL, { ...snap, css: '/assets/index-old.css' }, session)).toBeNull();
    expect(shellWithSnapshot(SHELL, { ...snap, css: '' }, session)).toBeNull();
    expect(shellWithSnapshot(SHELL, { ...snap, html: '' }, session)).toBeNull();
    expect(
      shellWithSnapshot(SHELL, { ...snap, html: 'x'.repeat(SNAPSHOT_MAX_BYTES + 1) }, session),
    ).toBeNull();
    expect(shellWithSnapshot('<html><head></head></html>', snap, session)).toBeNull();
  });
});

describe('captureListSnapshot (the page side)', () => {
  let wideScreen = false;
  beforeEach(() => {
    document.head.innerHTML = '<link rel="stylesheet" href="/assets/index-abc.css">';
    document.body.innerHTML =
      '<div id="root"><header id="top">Poradňa</header><div role="list"><div role="listitem">' +
      '<a href="/app/chats/c1" data-testid="conversation-row" tabindex="0"><span elementtiming="first-row">Anna</span></a></div></div>' +
      '<section aria-label="Notifications alt+T" aria-live="polite"><ol data-sonner-toaster><li>Uložené</li></ol></section></div>';
    window.history.pushState({}, '', '/app/chats');
    // jsdom has no matchMedia: a double, at a phone's width (the browser half is e2e/pwa-list-snapshot.e2e.ts).
    wideScreen = false;
    window.matchMedia = ((query: string) => ({
      matches: query === '(min-width: 1024px)' && wideScreen,
    })) as unknown as typeof window.matchMedia;
  });

  it('saves which layout the frame was drawn in: two panes from 1024 px', () => {
    wideScreen = true;
    expect(captureListSnapshot('u1')!.wide).toBe(true);
  });

  it('saves the list as drawn, without ids, test ids, links, tab stops or toasts', () => {
    const s = captureListSnapshot('u1')!;
    expect(s.wide).toBe(false);
    expect(s).toMatchObject({ userId: 'u1', css: '/assets/index-abc.css' });
    expect(s.html).toContain('Anna');
    expect(s.html).toContain('elementtiming="first-row"');
    expect(s.html).not.toMatch(/\sid=|data-testid|href=|tabindex|Uložené|Notifications/);
    // The live document is not touched.
    expect(document.querySelector('[data-testid="conversation-row"]')?.getAttribute('href')).toBe(
      '/app/chats/c1',
    );
  });

  it('saves the rules of the build’s stylesheet the frame needs, and leaves rows below the screen out', () => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"]')!;
    // jsdom loads no stylesheet: the link's sheet is stood in by its rules (the e2e journey uses the real one).
    const style = document.createElement('style');
    style.textContent = '.kept{color:red}.gone{color:blue}';
    document.head.append(style);
    Object.defineProperty(link, 'sheet', { configurable: true, get: () => style.sheet });
    const list = document.querySelector('[role="list"]')!;
    list.insertAdjacentHTML(
      'beforeend',
      '<div role="listitem" class="below"><span class="gone">Bohuš</span></div>',
    );
    list.querySelector('[role="listitem"]')!.classList.add('kept');
    const below = list.querySelector<HTMLElement>('.below')!;
    below.getBoundingClientRect = () => ({ top: window.innerHeight + 10 }) as DOMRect;
    const s = captureListSnapshot('u1')!;
    expect(s.html).toContain('Anna');
    expect(s.html).not.toContain('Bohuš');
    expect(s.rules?.replace(/\s+/g, '')).toBe('.kept{color:red;}');
    // The live list keeps its rows.
    expect(document.querySelector('.below')).not.toBeNull();
  });

  it('saves nothing on another address, with a filter, in a dialog, without rows or without a built stylesheet', () => {
    window.history.pushState({}, '', '/app/chats?filter=unread');
    expect(captureListSnapshot('u1')).toBeNull();
    window.history.pushState({}, '', '/app/archived');
    expect(captureListSnapshot('u1')).toBeNull();
    window.history.pushState({}, '', '/app/chats');
    document.body.insertAdjacentHTML('beforeend', '<div role="dialog">Odhlásiť?</div>');
    expect(captureListSnapshot('u1')).toBeNull();
    document.querySelector('[role="dialog"]')!.remove();
    expect(captureListSnapshot('u1')).not.toBeNull();
    document.querySelector('[role="list"]')!.remove();
    expect(captureListSnapshot('u1')).toBeNull();
    document.head.innerHTML = '';
    expect(captureListSnapshot('u1')).toBeNull();
  });
});

const readListSnapshot = async () => (await readListSnapshotAndSession())[0];

describe('storage', () => {
  beforeEach(() => vi.stubGlobal('indexedDB', new IDBFactory()));
  afterEach(() => vi.unstubAllGlobals());

  it('the worker reads the snapshot and the session together, through one kept connection', async () => {
    const factory = indexedDB;
    const opens = vi.spyOn(factory, 'open');
    await writeMirroredSession(session);
    await writeListSnapshot(snap);
    expect(await readListSnapshotAndSession()).toEqual([snap, session]);
    expect(await readListSnapshotAndSession()).toEqual([snap, session]);
    // Kept across reads and writes: one open for all of them (an open per read was most of the
    // worker's answer to a navigation, bench row 1b).
    expect(opens).toHaveBeenCalledTimes(1);
    await writeMirroredSession(null);
    expect(await readListSnapshotAndSession()).toEqual([null, null]);
  });

  it('the kept connection never blocks a deletion of the database, and is opened again after it', async () => {
    await writeMirroredSession(session);
    await writeListSnapshot(snap);
    expect(await readListSnapshot()).toEqual(snap);
    // Storage cleared by another context (e.g. "clear site data"): a kept connection that ignored the
    // version change would leave this request blocked forever.
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.deleteDatabase('poradna-worker');
      req.onsuccess = () => resolve();
      req.onerror = () => reject(req.error ?? new Error('delete failed'));
      req.onblocked = () => reject(new Error('blocked by the kept connection'));
    });
    expect(await readListSnapshotAndSession()).toEqual([null, null]);
    await writeListSnapshot(snap);
    expect(await readListSnapshot()).toEqual(snap);
  });

  it('a sign-out (session null) deletes the snapshot with the session', async () => {
    await writeMirroredSession(session);
    await writeListSnapshot(snap);
    expect(await readListSnapshot()).toEqual(snap);
    await writeMirroredSession({ ...session, accessToken: 't2' });
    expect(await readListSnapshot()).toEqual(snap);
    await writeMirroredSession(null);
    expect(await readMirroredSession()).toBeNull();
    expect(await readListSnapshot()).toBeNull();
  });

  it('starting or stopping an impersonation deletes the snapshot (it shows one account’s list)', async () => {
    const { setImpersonation, clearImpersonation } =
      await import('../../../src/account/impersonation-store.ts');
    await writeListSnapshot(snap);
    setImpersonation({ id: 'acc-2', name: 'Iný tím' });
    await vi.waitFor(async () => expect(await readListSnapshot()).toBeNull());
    await writeListSnapshot(snap);
    clearImpersonation();
    await vi.waitFor(async () => expect(await readListSnapshot()).toBeNull());
  });
});
