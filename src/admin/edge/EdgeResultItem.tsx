import { admin } from '../../text/admin.ts';
import { Badge } from '../ui/Badge.tsx';
import { truncateBody, type CheckResult } from './edge-checks.ts';

/** One function's outcome: description, JWT badge, status, duration, error, collapsible body; an
 *  integration that is not set up shows 'Nenakonfigurované' instead of a failure (issue 21 admin 11). */
export function EdgeResultItem({ result, verifyJwt }: { result: CheckResult; verifyJwt: boolean }) {
  const outcome = result.success ? 'passed' : result.notConfigured ? 'not-configured' : 'failed';
  return (
    <li data-testid="edge-result" data-function={result.name} data-success={result.success} data-outcome={outcome} className="rounded-lg border border-slate-200 p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono font-medium">{result.name}</span>
        <Badge tone={verifyJwt ? 'amber' : 'green'}>{verifyJwt ? admin.edge.jwt : admin.edge.public}</Badge>
        <Badge tone={result.success ? 'green' : result.notConfigured ? 'slate' : 'red'} testId="edge-status">
          {result.status}
        </Badge>
        {result.notConfigured && (
          <Badge tone="slate" testId="edge-outcome-not-configured">
            {admin.edge.notConfigured}
          </Badge>
        )}
        <span className="ml-auto text-xs text-slate-500">{result.duration} ms</span>
      </div>
      <p className="text-xs text-slate-600">{admin.edge.descriptions[result.name] ?? result.name}</p>
      {result.notConfigured && <p className="text-xs text-slate-600">{admin.edge.notConfiguredNote}</p>}
      {result.error && (
        <p className="text-xs text-red-700" data-testid="edge-error">
          {result.error}
        </p>
      )}
      {result.body !== '' && (
        <details className="mt-1">
          <summary className="cursor-pointer text-xs text-slate-600">{admin.edge.body(result.body.length)}</summary>
          <pre className="mt-1 max-h-40 overflow-auto rounded bg-slate-50 p-2 text-xs whitespace-pre-wrap break-all">{truncateBody(result.body)}</pre>
        </details>
      )}
    </li>
  );
}
