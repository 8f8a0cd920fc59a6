import { admin } from '../../text/admin.ts';
import { Card } from '../ui/Card.tsx';
import { projectRef, truncateKey, type CheckDefinition } from './edge-checks.ts';

export function ConfigCard({ baseUrl, anonKey, checks }: { baseUrl: string; anonKey: string; checks: readonly CheckDefinition[] }) {
  const publicCount = checks.filter((c) => !c.verifyJwt).length;
  const rows: [string, string | number, string][] = [
    [admin.edge.projectRef, projectRef(baseUrl), 'ref'],
    [admin.edge.baseUrl, baseUrl, 'base'],
    [admin.edge.anonKey, truncateKey(anonKey), 'anon'],
    [admin.edge.functionsTotal, checks.length, 'total'],
    [admin.edge.functionsPublic, publicCount, 'public'],
    [admin.edge.functionsProtected, checks.length - publicCount, 'protected'],
  ];
  return (
    <Card title={admin.edge.config} testId="edge-config">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        {rows.map(([label, value, key]) => (
          <div key={key} className="contents">
            <dt className="text-slate-500">{label}</dt>
            <dd className="font-mono break-all" data-testid={`config-${key}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
