import { admin } from '../../text/admin.ts';
import { formatDateTime } from '../lib/format.ts';
import { Badge } from '../ui/Badge.tsx';
import { statusLabel, typeLabel, type TestRun } from './test-runs.ts';

const TONE = { running: 'blue', passed: 'green', 'not-configured': 'slate', failed: 'red' } as const;

export function TestRunCard({ run }: { run: TestRun }) {
  return (
    <li data-testid="test-run" data-type={run.type} data-status={run.status} className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{typeLabel(run.type)}</span>
        <Badge tone={TONE[run.status]} testId="run-status">
          {statusLabel(run.status)}
        </Badge>
      </div>
      <div className="text-xs text-slate-600">
        {admin.tests.started}: {formatDateTime(run.startTime)}
        {run.endTime && (
          <>
            {' · '}
            {admin.tests.ended}: {formatDateTime(run.endTime)}
          </>
        )}
      </div>
      {run.summary && (
        <div className="flex gap-3 text-xs" data-testid="run-summary">
          <span>
            {admin.tests.total}: {run.summary.total}
          </span>
          <span className="text-green-700">
            {admin.tests.passed}: {run.summary.passed}
          </span>
          <span className="text-red-700">
            {admin.tests.failed}: {run.summary.failed}
          </span>
          {run.summary.notConfigured > 0 && (
            <span className="text-slate-700" data-testid="run-not-configured">
              {admin.tests.notConfigured}: {run.summary.notConfigured}
            </span>
          )}
        </div>
      )}
      {/* Focusable (issue 37 admin 4): the output scrolls, and a keyboard user must reach it. */}
      <pre data-testid="run-output" tabIndex={0} aria-label={admin.tests.outputLabel(typeLabel(run.type))} className="focus-ring h-48 overflow-auto rounded bg-slate-900 p-2 text-xs whitespace-pre-wrap text-slate-100">
        {run.output.length > 0 ? run.output.join('\n') : admin.tests.noOutput}
      </pre>
    </li>
  );
}
