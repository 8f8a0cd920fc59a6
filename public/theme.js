// The theme before the first paint (issue 40). A classic script in <head>, parser-blocking on
// purpose: it runs before <body> is parsed, so the first frame already has the right colours. The
// app's CSP allows scripts from 'self' only (supabase/local/gateway/security-headers.ts), hence a file
// and not an inline script; the service worker precaches it with the build (sw/build-plugin.ts globs).
// Invariants:
// - <html> has the class `dark` exactly when the choice stored on this device is 'dark', or is
//   'system' (nothing stored) and prefers-color-scheme is dark; src/theme/dark.css and Tailwind's
//   `dark:` variant read only that class;
// - every <meta name="theme-color"> carries the colour of the theme shown (the installed app's bar);
// - this file is the only code that applies the theme: the settings (src/theme/theme-choice.ts) store
//   the choice and send the 'poradna:theme' event; another tab's change arrives as a 'storage' event.
(function () {
  var KEY = 'poradna:theme';
  var BAR = { light: '#0f766e', dark: '#0f172a' };
  var media = typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null;

  function stored() {
    try {
      var value = window.localStorage.getItem(KEY);
      return value === 'light' || value === 'dark' ? value : 'system';
    } catch (e) {
      return 'system'; // storage refused (private mode): follow the system
    }
  }

  function apply() {
    var choice = stored();
    var dark = choice === 'dark' || (choice === 'system' && media !== null && media.matches);
    var root = document.documentElement;
    root.classList.toggle('dark', dark);
    root.setAttribute('data-theme-choice', choice);
    var metas = document.querySelectorAll('meta[name="theme-color"]');
    for (var i = 0; i < metas.length; i++) metas[i].setAttribute('content', dark ? BAR.dark : BAR.light);
  }

  apply();
  if (media !== null) media.addEventListener('change', apply);
  window.addEventListener('poradna:theme', apply);
  window.addEventListener('storage', function (e) {
    if (e.key === KEY || e.key === null) apply();
  });
})();
