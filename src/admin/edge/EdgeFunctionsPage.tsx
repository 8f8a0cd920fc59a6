// /admin/edge-functions: runs the nine checks one after another, showing the current one, then the
// summary, per-function results and the configuration card.
import { useEffect, useState } from 'react';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { appEnv, supabase } from '../../supabase.ts';
import { admin } from '../../text/admin.ts';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { ConfigCard } from './ConfigCard.tsx';
import { summarize, type CheckResult } from './edge-checks.ts';
import { EdgeResultItem } from './EdgeResultItem.tsx';
import { CHECKS, checkContext, runCheck } from './run-checks.ts';

export function EdgeFunctionsPage() {
  useDocumentTitle(admin.edge.title);
  const [results, setResults] = useState<CheckResult[]>([]);
  const [current, setCurrent] = useState<string | null>(null);
  const [accessToken, setAccessToken] = useState<string | null>(null);
  useEffect(() => {
    void supabase.auth.getSession().then(({ data }) => setAccessToken(data.session?.access_token ?? null));
  }, []);

  const runAll = async () => {
    setResults([]);
    const { data } = await supabase.auth.getSession();
    const token = data.session?.access_token ?? null;
    const ctx = await checkContext(token);
    for (const def of CHECKS) {
      setCurrent(def.name);
      const result = await runCheck(def, ctx, token);
      setResults((r) => [...r, result]);
    }
    setCurrent(null);
  };

  const summary = summarize(results);
  return (
    <section className="flex flex-col gap-3">
      <Card
        title={admin.edge.title}
        actions={
          <Button variant="primary" disabled={current !== null} onClick={() => void runAll()}>
            {admin.edge.runAll}
          </Button>
        }
      >
        {current && (
          <p role="status" className="text-sm text-slate-700" data-testid="edge-current">
            {admin.edge.running(current)}
          </p>
        )}
        {results.length > 0 && (
          <dl className="grid grid-cols-2 gap-2 text-center text-sm sm:grid-cols-5" data-testid="edge-summary">
            {(
              [
                [admin.edge.total, summary.total, 'total'],
                [admin.edge.passed, summary.passed, 'passed'],
                [admin.edge.failed, summary.failed, 'failed'],
                [admin.edge.notConfigured, summary.notConfigured, 'not-configured'],
                [admin.edge.average, summary.averageMs, 'average'],
              ] as const
            ).map(([label, value, key]) => (
              <div key={key} className="rounded-lg bg-slate-50 p-2">
                <dt className="text-xs text-slate-500">{label}</dt>
                <dd className="text-lg font-semibold" data-testid={`edge-${key}`}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
        )}
        <ul className="flex max-h-[32rem] flex-col gap-2 overflow-y-auto">
          {results.map((r) => (
            <EdgeResultItem key={r.name} result={r} verifyJwt={CHECKS.find((c) => c.name === r.name)?.verifyJwt ?? true} />
          ))}
        </ul>
      </Card>
      <ConfigCard baseUrl={appEnv.supabaseUrl} anonKey={appEnv.anonKey} accessToken={accessToken} checks={CHECKS} />
    </section>
  );
}
