// /snapshot-boot.js: the page-side loader of the chat list's paint snapshot (list-snapshot.ts), a
// file of its own because the app's Content-Security-Policy runs no inline script
// (supabase/local/gateway/security-headers.ts). The worker puts it where the shell had its entry
// module, as `<script defer src="/snapshot-boot.js" data-entry=… data-crossorigin data-host=…
// data-max-show=…>`; built by build-plugin.ts and precached with the shell.
// Invariants (unchanged from the inline loader it replaces, but for the last two):
// - deferred, so it runs after /env.js (document order) and before DOMContentLoaded fires;
// - the entry module starts two frames after DOMContentLoaded (or after 100 ms for a tab that renders
//   no frames), so its evaluation cannot hold the frame that shows the snapshot; its module preloads
//   (data-preload, taken out of the head by the worker) start with it, not during the parse: each
//   request the parse starts costs the snapshot's first frame (a trace showed 3–7 ms each, 4× throttled);
// - the painted snapshot removes itself after data-max-show ms even if the app never starts;
// - when the worker inlined only the frame's own rules (`<style data-snapshot-css>`), the whole
//   stylesheet (data-stylesheet) is added here as a link right after them, after the first frame —
//   a script-inserted stylesheet is not render-blocking, and its request is not in that frame's way; it also names the
//   build for the next save and for the bundler's lazy-chunk preloads — and the entry module starts
//   only once it has loaded (or failed, or after 3 s), so the app never renders with the subset alone.
import { SNAPSHOT_CSS_ATTR } from './config.ts';

(() => {
  const me = document.currentScript as HTMLScriptElement | null;
  if (!me) return;
  const { entry, host, maxShow, preload } = me.dataset;
  const crossorigin = me.hasAttribute('data-crossorigin');
  if (host) {
    setTimeout(() => document.getElementById(host)?.remove(), Number(maxShow) || 5000);
  }
  if (!entry) return;
  let done = false;
  const load = () => {
    if (done) return;
    done = true;
    preloadModules();
    // The entry in the next task: linking each preload starts a request, and the entry's insertion
    // fetches and compiles the modules already preloaded; in one task the two took ~15 ms, counted ×4
    // as blocking time on Lighthouse's phone (issue 40).
    setTimeout(() => {
      const s = document.createElement('script');
      s.type = 'module';
      if (crossorigin) s.crossOrigin = '';
      s.src = entry;
      document.head.appendChild(s);
    }, 0);
  };
  let preloaded = false;
  const preloadModules = () => {
    if (preloaded) return;
    preloaded = true;
    for (const href of (preload ?? '').split(' ').filter(Boolean)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      if (crossorigin) link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
    }
  };
  const start = () => {
    // After the snapshot's first frame (or 100 ms, for a tab that renders no frames): a request
    // started before it is paid for by that frame.
    const stylesheet = new Promise<void>((resolve) => {
      let added = false;
      const add = () => {
        if (added) return;
        added = true;
        void wholeStylesheet().then(resolve);
      };
      requestAnimationFrame(() => setTimeout(add, 0));
      setTimeout(add, 100);
    });
    const afterFrames = new Promise<void>((resolve) => {
      requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)));
      setTimeout(resolve, 100);
    });
    void Promise.all([afterFrames, stylesheet]).then(load);
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();

  /** Adds the whole stylesheet when only the frame's rules are inline; resolves once it is in. */
  function wholeStylesheet(): Promise<void> {
    const href = me!.dataset.stylesheet;
    if (!href) return Promise.resolve();
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    if (crossorigin) link.crossOrigin = '';
    link.href = href;
    const loaded = new Promise<void>((resolve) => {
      link.onload = link.onerror = () => resolve();
      setTimeout(resolve, 3000);
    });
    // After the frame's own rules, as the shell's link was: the whole sheet wins every tie.
    const subset = document.querySelector(`style[${SNAPSHOT_CSS_ATTR}]`);
    if (subset) subset.after(link);
    else document.head.appendChild(link);
    return loaded;
  }
})();
