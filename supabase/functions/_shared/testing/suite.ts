// A tiny check runner for the test-runner function: named async checks, each passing or failing
// with a reason, collected into output lines and a summary the admin page shows.
export interface SuiteResult {
  success: boolean;
  output: string[];
  summary: { total: number; passed: number; failed: number };
}

export type Check = { name: string; run: () => Promise<string | void> };

export async function runChecks(title: string, checks: Check[], deadlineMs = 50_000): Promise<SuiteResult> {
  const output = [`▶ ${title}`];
  let passed = 0;
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
      output.push(`✖ ${c.name} (${Date.now() - t0} ms): ${(err as Error).message}`);
    }
  }
  const total = checks.length;
  output.push(`${passed} passed, ${total - passed} failed`);
  return { success: passed === total, output, summary: { total, passed, failed: total - passed } };
}

export function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new Error(message);
}
