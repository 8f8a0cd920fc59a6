// The suite's summary is what CI shows (the end of the output): every failed test must be named there,
// the run that landed red in session 23 named only two journey files and no Vitest test at all.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { playwrightFailures, summarizeTimings, vitestFailures } from '../../scripts/test-timings.mjs';

describe('test summary names every failure', () => {
  it('names a failed Vitest test with the first line of its error, and a crash with none', () => {
    const report = {
      success: false,
      testResults: [
        { name: `${process.cwd()}/tests/a.test.ts`, status: 'failed', assertionResults: [
          { status: 'passed', fullName: 'ok' },
          { status: 'failed', fullName: 'x > y', failureMessages: ['\x1b[31mAssertionError: expected 1 to be 2\x1b[39m\n    at ...'] },
        ] },
        { name: `${process.cwd()}/tests/b.test.ts`, status: 'failed', message: 'Error: beforeAll timed out', assertionResults: [] },
      ],
    };
    expect(vitestFailures(report, 'vitest.json')).toEqual([
      'tests/a.test.ts > x > y: AssertionError: expected 1 to be 2',
      'tests/b.test.ts: Error: beforeAll timed out',
    ]);
    expect(vitestFailures({ success: false, testResults: [] }, 'vitest.json')[0]).toMatch(/unhandled error/);
    expect(vitestFailures({ success: true, testResults: [] }, 'vitest.json')).toEqual([]);
  });

  it('names a failed journey, a flaky one, and a global error', () => {
    const report = {
      suites: [{ file: 'auth.e2e.ts', title: 'auth.e2e.ts', specs: [], suites: [{ title: 'sign in', specs: [
        { title: 'keeps the session', tests: [{ projectName: 'phone', results: [{ status: 'failed', error: { message: 'Timeout 10000ms\nmore' } }, { status: 'failed', error: { message: 'Timeout again' } }] }] },
        { title: 'flakes', tests: [{ projectName: 'desktop', results: [{ status: 'timedOut', error: { message: 'Test timeout' } }, { status: 'passed' }] }] },
        { title: 'passes', tests: [{ projectName: 'desktop', results: [{ status: 'passed' }] }] },
      ] }] }],
      errors: [{ message: 'global setup failed' }],
    };
    expect(playwrightFailures(report)).toEqual([
      'e2e/auth.e2e.ts > sign in > keeps the session [phone] failed: Timeout again',
      'e2e/auth.e2e.ts > sign in > flakes [desktop] flaky: Test timeout',
      'playwright: global setup failed',
    ]);
  });

  // Stop 49's run: 'toBeVisible() failed' alone did not say which of a journey's five checks it was.
  it('says what a failed expectation looked for and where it is in the journey', () => {
    const message = '\x1b[31mError: expect(locator).toBeVisible() failed\x1b[39m\n\nLocator: getByText(\'No conversations match\')\nExpected: visible\nTimeout: 10000ms\nError: element(s) not found\n\nCall log:\n  - waiting';
    const report = {
      suites: [{ file: 'lists.e2e.ts', title: 'lists.e2e.ts', specs: [
        { title: 'search', tests: [{ projectName: '', results: [
          { status: 'failed', error: { message, location: { file: `${process.cwd()}/e2e/lists.e2e.ts`, line: 93, column: 5 } } },
          { status: 'passed' },
        ] }] },
      ] }],
    };
    expect(playwrightFailures(report)).toEqual([
      "e2e/lists.e2e.ts > search flaky (e2e/lists.e2e.ts:93): Error: expect(locator).toBeVisible() failed | Locator: getByText('No conversations match') | Expected: visible | Timeout: 10000ms | Error: element(s) not found",
    ]);
  });

  // Stop 60's run: push-notifications printed its failure dump, but CI shows only the output's end.
  it("shows a journey's 'diagnostics' attachment under its failure, its last lines when long", () => {
    const body = (text: string) => Buffer.from(text).toString('base64');
    const long = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n');
    const report = {
      suites: [{ file: 'push.e2e.ts', title: 'push.e2e.ts', specs: [
        { title: 'notifies', tests: [{ projectName: '', results: [
          { status: 'failed', error: { message: 'Error: none shown' }, attachments: [{ name: 'screenshot', contentType: 'image/png', path: '/x.png' }, { name: 'diagnostics', contentType: 'text/plain', body: body('Push: started\n\n\x1b[31mPush: shown in 140 ms\x1b[39m') }] },
          { status: 'passed' },
        ] }] },
        { title: 'long', tests: [{ projectName: '', results: [{ status: 'failed', error: { message: 'Error: x' }, attachments: [{ name: 'diagnostics', contentType: 'text/plain', body: body(long) }] }] }] },
      ] }],
    };
    const [short, cut] = playwrightFailures(report);
    expect(short).toBe('e2e/push.e2e.ts > notifies flaky: Error: none shown\nPush: started\nPush: shown in 140 ms');
    expect(cut!.split('\n')).toEqual(['e2e/push.e2e.ts > long failed: Error: x', '(the last 24 of 30 lines)', ...Array.from({ length: 24 }, (_, i) => `line ${i + 7}`)]);
    const dir = mkdtempSync(join(tmpdir(), 'timings-'));
    writeFileSync(join(dir, 'playwright.json'), JSON.stringify(report));
    expect(summarizeTimings({ dir })).toContain('    ✖ e2e/push.e2e.ts > notifies flaky: Error: none shown\n        Push: started\n        Push: shown in 140 ms');
  });

  // Stop 49's run: the Vitest step failed after 244 s and left no report; the summary named nothing.
  it('names a failed step that ended without its report, with its exit status', () => {
    const dir = mkdtempSync(join(tmpdir(), 'timings-'));
    writeFileSync(join(dir, 'steps.json'), JSON.stringify({ ok: false, totalSeconds: 300, steps: [
      { name: 'vitest', seconds: 243.6, ok: false, exit: 'SIGKILL' },
      { name: 'lint', seconds: 100, ok: true },
    ] }));
    const text = summarizeTimings({ dir });
    expect(text).toMatch(/✖ vitest +243\.6 s {2}\(exit SIGKILL\)/);
    expect(text).toMatch(/✖ vitest: ended without its report vitest\.json/);
    writeFileSync(join(dir, 'vitest.json'), JSON.stringify({ success: false, testResults: [] }));
    expect(summarizeTimings({ dir })).not.toMatch(/ended without its report/);
  });
});
