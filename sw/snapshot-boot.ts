// /snapshot-boot.js: the page-side loader of the chat list's paint snapshot (list-snapshot.ts), a
// file of its own because the app's Content-Security-Policy runs no inline script
// (supabase/local/gateway/security-headers.ts). The worker puts it where the shell had its entry
// module, as `<script defer src="/snapshot-boot.js" data-entry=… data-crossorigin data-host=…
// data-max-show=…>`; built by build-plugin.ts and precached with the shell.
// Invariants (unchanged from the inline loader it replaces):
// - deferred, so it runs after /env.js (document order) and before DOMContentLoaded fires;
// - the entry module starts two frames after DOMContentLoaded (or after 100 ms for a tab that renders
//   no frames), so its evaluation cannot hold the frame that shows the snapshot;
// - the painted snapshot removes itself after data-max-show ms even if the app never starts.
(() => {
  const me = document.currentScript as HTMLScriptElement | null;
  if (!me) return;
  const { entry, host, maxShow } = me.dataset;
  const crossorigin = me.hasAttribute('data-crossorigin');
  if (host) {
    setTimeout(() => document.getElementById(host)?.remove(), Number(maxShow) || 5000);
  }
  if (!entry) return;
  let done = false;
  const load = () => {
    if (done) return;
    done = true;
    const s = document.createElement('script');
    s.type = 'module';
    if (crossorigin) s.crossOrigin = '';
    s.src = entry;
    document.head.appendChild(s);
  };
  const start = () => {
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(load, 0)));
    setTimeout(load, 100);
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
