#!/bin/sh
# Debian Chromium (/usr/bin/chromium, or $CHROMIUM_PATH) as the journeys, the chaos run and the bench
# start it through Playwright (e2e/playwright.config.ts CHROMIUM_EXECUTABLE). Two things Chromium does
# by itself that the suite must not let it do:
#
# 1. Every --disable-features switch of the command line is merged into one. Chromium keeps only the
#    last value of a switch given twice (base::CommandLine stores one value per switch), and Playwright
#    passes a --disable-features list of its own before the caller's arguments: a second switch from
#    us would silently drop Playwright's list. CHROMIUM_ARGS disable the omnibox's WebUI popup, which
#    new headless Chromium builds for every window (issue 42, session 43).
# 2. Run as root, Chromium raises its own threads' priority: the browser's and the GPU process's main
#    threads to nice -8, renderers to 0, whatever nice level it was started at (it has CAP_SYS_NICE).
#    `npm test` runs the journeys at nice 10 beside Vitest's files (nice 10) and the timing files
#    (nice 0, which must win the CPU when they wake: scripts/test.mjs); at -8 Chromium outweighed both
#    (CFS weights ~5,500 against 110 and 1,024). Without CAP_SYS_NICE it keeps the level it was given.
disabled=
for arg do
  shift
  case $arg in
    --disable-features=*) disabled="${disabled:+$disabled,}${arg#--disable-features=}" ;;
    *) set -- "$@" "$arg" ;;
  esac
done
browser="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
  exec setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice -- "$browser" "$@" ${disabled:+"--disable-features=$disabled"}
fi
exec "$browser" "$@" ${disabled:+"--disable-features=$disabled"}
