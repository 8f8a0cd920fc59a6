// A tiny check runner for the test-runner function: named async checks, each passing or failing
// with a reason, collected into output lines and a summary the admin page shows.
export interface SuiteResult {
  success: boolean;
  output: string[];
  /** notConfigured: checks of an integration that is not set up; neither passed nor failed. */
  summary: { total: number; passed: number; failed: number; notConfigured: number };
}

/** Thrown by a check whose integration is not configured (issue 21 admin item 11): not a failure. */
export class NotConfigured extends Error {}
export const NOT_CONFIGURED_LABEL = 'Nenakonfigurované';

export type Check = { name: string; run: () => Promise<string | void> };

export async function runChecks(title: string, checks: Check[], deadlineMs = 50_000): Promise<SuiteResult> {
  const output = [`▶ ${title}`];
  let passed = 0;
  let notConfigured = 0;
  const end = Date.now() + deadlineMs;
  for (const c of checks) {
    if (Date.now() > end) {
      output.push(`✖ ${c.name}: skipped, the run took too long`);
      continue;
    }
    const t0 = Date.now();
    try {
      const detail = await c.run();
      passed++;
      output.push(`✔ ${c.name} (${Date.now() - t0} ms)${detail ? ` – ${detail}` : ''}`);
    } catch (err) {
      if (err instanceof NotConfigured) {
        notConfigured++;
        output.push(`○ ${c.name}: ${NOT_CONFIGURED_LABEL}${err.message ? ` – ${err.message}` : ''}`);
      } else output.push(`✖ ${c.name} (${Date.now() - t0} ms): ${(err as Error).message}`);
    }
  }
  const total = checks.length;
  const failed = total - passed - notConfigured;
  output.push(`${passed} passed, ${failed} failed${notConfigured ? `, ${notConfigured} ${NOT_CONFIGURED_LABEL.toLowerCase()}` : ''}`);
  return { success: failed === 0, output, summary: { total, passed, failed, notConfigured } };
}

export function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new Error(message);
}
