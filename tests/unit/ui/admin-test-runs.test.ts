import { describe, expect, it } from 'vitest';
import { failRun, finishRun, formatRuns, PROGRESS_DELAY_MS, startRun, statusLabel, withProgress } from '../../../src/admin/tests/test-runs.ts';

const t0 = new Date('2026-02-01T10:00:00Z');
const t1 = new Date('2026-02-01T10:00:05Z');

describe('test runs', () => {
  it('starts running with an id of type plus timestamp', () => {
    const run = startRun('unit', t0);
    expect(run).toMatchObject({ id: `unit-${t0.getTime()}`, type: 'unit', status: 'running', output: [], endTime: null, summary: null });
  });

  it('passes only when the reply says success: true', () => {
    const run = startRun('e2e', t0);
    const passed = finishRun(run, { success: true, output: ['ok 1'], summary: { total: 1, passed: 1, failed: 0 } }, t1);
    expect(passed).toMatchObject({ status: 'passed', output: ['ok 1'], endTime: t1.toISOString(), summary: { total: 1, passed: 1, failed: 0 } });
    expect(finishRun(run, { success: false, output: [], summary: { total: 2, passed: 1, failed: 1 } }, t1).status).toBe('failed');
    expect(finishRun(run, {}, t1)).toMatchObject({ status: 'failed', summary: { total: 0, passed: 0, failed: 0 } });
  });

  it('counts not-configured checks apart and never calls such a run passed (issue 37 admin 3)', () => {
    const run = finishRun(startRun('edge', t0), { success: true, output: [], summary: { total: 9, passed: 2, failed: 0, notConfigured: 7 } }, t1);
    expect(run).toMatchObject({ status: 'not-configured', summary: { total: 9, passed: 2, failed: 0, notConfigured: 7 } });
    expect(statusLabel(run.status)).toBe('Nenakonfigurované');
    expect(formatRuns([run])).toContain('Total: 9, Passed: 2, Failed: 0, Nenakonfigurované: 7');
  });

  it('a thrown call is failed with the error lines and the summary 0/0/1', () => {
    const failed = failRun(startRun('edge', t0), 'timeout', t1);
    expect(failed.status).toBe('failed');
    expect(failed.summary).toEqual({ total: 0, passed: 0, failed: 1, notConfigured: 0 });
    expect(failed.output[0]).toContain('timeout');
    expect(failed.output.join('\n')).toMatch(/Missing test files or configuration[\s\S]*Network problems[\s\S]*Edge function timeout[\s\S]*Missing dependencies/);
  });

  it('adds two progress lines after 1000 ms, only while running', () => {
    expect(PROGRESS_DELAY_MS).toBe(1000);
    const run = withProgress(startRun('unit', t0));
    expect(run.output).toHaveLength(2);
    const done = finishRun(run, { success: true, output: ['x'] }, t1);
    expect(done.output).toHaveLength(3);
    expect(withProgress(done)).toBe(done);
  });

  it('labels the statuses Running, Passed, Failed and Idle', () => {
    expect([statusLabel('running'), statusLabel('passed'), statusLabel('failed'), statusLabel(null)]).toEqual(['Running', 'Passed', 'Failed', 'Idle']);
  });

  it('formats every run for the clipboard, with the no-output text', () => {
    const a = finishRun(startRun('unit', t0), { success: true, output: ['✓ one'], summary: { total: 1, passed: 1, failed: 0 } }, t1);
    const b = startRun('edge', t1);
    const text = formatRuns([b, a]);
    expect(text.indexOf('Edge Functions Tests (Running)')).toBeLessThan(text.indexOf('Unit Tests (Passed)'));
    expect(text).toContain('Total: 1, Passed: 1, Failed: 0');
    expect(text).toContain('✓ one');
    expect(text).toContain('No detailed output available');
  });
});
