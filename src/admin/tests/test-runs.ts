// Test run records of /admin/tests (admin-area.md sections 3, 4, 8): running → passed when the reply's
// success is true, else failed; a thrown call records the error lines and the summary 0/0/1; the
// clipboard text summarises every run. Checks of an integration that is not set up (the runner's
// summary.notConfigured, supabase/functions/_shared/testing/suite.ts) are counted apart and never as
// passed (issue 37 admin 3): a successful run with some of them is 'not-configured', not 'passed'.
import { admin } from '../../text/admin.ts';

export type TestType = 'unit' | 'e2e' | 'edge';
export type RunStatus = 'running' | 'passed' | 'not-configured' | 'failed';

export interface RunSummary {
  total: number;
  passed: number;
  failed: number;
  notConfigured: number;
}

export interface TestRun {
  id: string;
  type: TestType;
  status: RunStatus;
  output: string[];
  startTime: string;
  endTime: string | null;
  summary: RunSummary | null;
}

export interface RunnerReply {
  success?: unknown;
  output?: unknown;
  summary?: unknown;
}

export const PROGRESS_DELAY_MS = 1000;

export function startRun(type: TestType, now: Date): TestRun {
  return { id: `${type}-${now.getTime()}`, type, status: 'running', output: [], startTime: now.toISOString(), endTime: null, summary: null };
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

export function readSummary(v: unknown): RunSummary {
  const s = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
  return { total: num(s.total), passed: num(s.passed), failed: num(s.failed), notConfigured: num(s.notConfigured) };
}

export function finishRun(run: TestRun, reply: RunnerReply, now: Date): TestRun {
  const output = Array.isArray(reply.output) ? reply.output.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))) : [];
  const summary = readSummary(reply.summary);
  return {
    ...run,
    status: reply.success !== true ? 'failed' : summary.notConfigured > 0 ? 'not-configured' : 'passed',
    output: [...run.output, ...output],
    endTime: now.toISOString(),
    summary,
  };
}

export function failRun(run: TestRun, message: string, now: Date): TestRun {
  return {
    ...run,
    status: 'failed',
    output: [...run.output, ...admin.tests.errorLines(message)],
    endTime: now.toISOString(),
    summary: { total: 0, passed: 0, failed: 1, notConfigured: 0 },
  };
}

export function withProgress(run: TestRun): TestRun {
  return run.status === 'running' ? { ...run, output: [...run.output, ...admin.tests.progress] } : run;
}

export function statusLabel(status: RunStatus | null): string {
  if (status === null) return admin.tests.status.idle;
  return admin.tests.status[status];
}

export function typeLabel(type: TestType): string {
  return type === 'unit' ? 'Unit' : type === 'e2e' ? 'E2E' : 'Edge Functions';
}

/** The plain-text summary Copy All Results puts on the clipboard, newest run first. */
export function formatRuns(runs: readonly TestRun[]): string {
  return runs
    .map((r) => {
      const lines = [
        `=== ${typeLabel(r.type)} Tests (${statusLabel(r.status)}) ===`,
        `Started: ${r.startTime}`,
        `Ended: ${r.endTime ?? '-'}`,
      ];
      if (r.summary) {
        const apart = r.summary.notConfigured > 0 ? `, ${admin.tests.notConfigured}: ${r.summary.notConfigured}` : '';
        lines.push(`Total: ${r.summary.total}, Passed: ${r.summary.passed}, Failed: ${r.summary.failed}${apart}`);
      }
      lines.push('Output:', ...(r.output.length > 0 ? r.output : [admin.tests.noOutput]));
      return lines.join('\n');
    })
    .join('\n\n');
}
