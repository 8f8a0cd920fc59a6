// The suite's summary is what CI shows (the end of the output): every failed test must be named there,
// the run that landed red in session 23 named only two journey files and no Vitest test at all.
import { describe, expect, it } from 'vitest';
import { playwrightFailures, vitestFailures } from '../../scripts/test-timings.mjs';

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
});
