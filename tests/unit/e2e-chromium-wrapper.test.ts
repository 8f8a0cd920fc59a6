// e2e/chromium.sh: Chromium keeps only the last value of a switch given twice, so the wrapper merges
// every --disable-features of its command line into one, keeping the other arguments in order (issue
// 42, session 43: Playwright passes a list of its own before the journeys' CHROMIUM_ARGS).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../../e2e/playwright.config.ts';

/** Runs the wrapper with a stand-in browser that prints the arguments it was started with, one a line. */
function launched(args: string[], script = 'for a do printf "%s\\n" "$a"; done'): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'poradna-chromium-wrapper-'));
  const fake = join(dir, 'chromium');
  writeFileSync(fake, `#!/bin/sh\n${script}\n`);
  chmodSync(fake, 0o755);
  return execFileSync(CHROMIUM_EXECUTABLE, args, { env: { ...process.env, CHROMIUM_PATH: fake }, encoding: 'utf8' }).split('\n').slice(0, -1);
}

describe('e2e/chromium.sh', () => {
  it("merges Playwright's --disable-features with the journeys' into one switch, other arguments untouched", () => {
    const out = launched(['--disable-features=PaintHolding,MediaRouter', '--headless', '--user-data-dir=/tmp/a b', '--disable-features=WebUIOmniboxPopup', '--remote-debugging-pipe']);
    expect(out).toEqual(['--headless', '--user-data-dir=/tmp/a b', '--remote-debugging-pipe', '--disable-features=PaintHolding,MediaRouter,WebUIOmniboxPopup']);
  });

  it('passes a command line without the switch as it is', () => {
    expect(launched(['--headless', 'about:blank'])).toEqual(['--headless', 'about:blank']);
  });

  it("the journeys' arguments switch the omnibox's WebUI popup off", () => {
    const out = launched(['--disable-features=PaintHolding', ...CHROMIUM_ARGS]);
    expect(out.filter((a) => a.startsWith('--disable-features='))).toEqual(['--disable-features=PaintHolding,WebUIOmniboxPopup,WebUIOmniboxAimPopup']);
  });

  // Chromium run as root raises its own threads to nice -8 (browser, GPU) and its renderers to 0,
  // out of the nice 10 `npm test` starts the journeys at; without CAP_SYS_NICE it cannot.
  it.runIf(process.getuid?.() === 0)('as root, starts the browser without CAP_SYS_NICE (bit 23), so it keeps the nice level it was given', () => {
    const [bounding, effective] = launched([], "sed -n 's/^CapBnd:\\t//p; s/^CapEff:\\t//p' /proc/self/status").map((hex) => BigInt(`0x${hex}`));
    const SYS_NICE = 1n << 23n;
    expect(bounding! & SYS_NICE).toBe(0n);
    expect(effective! & SYS_NICE).toBe(0n);
    // The runner itself still holds it: the wrapper is what takes it away.
    const own = /CapEff:\t([0-9a-f]+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]!;
    expect(BigInt(`0x${own}`) & SYS_NICE).toBe(SYS_NICE);
  });
});
