import { admin } from '../../text/admin.ts';
import { Card } from '../ui/Card.tsx';
import { projectRef, truncateKey, type CheckDefinition } from './edge-checks.ts';
import { apiKeyKind, tokenSigning } from './key-kinds.ts';

export function ConfigCard({
  baseUrl,
  anonKey,
  accessToken,
  checks,
}: {
  baseUrl: string;
  anonKey: string;
  /** The admin's own access token: its header tells how this project signs user tokens. */
  accessToken: string | null;
  checks: readonly CheckDefinition[];
}) {
  const publicCount = checks.filter((c) => !c.verifyJwt).length;
  const kind = apiKeyKind(anonKey);
  const signing = tokenSigning(accessToken);
  const rows: [string, string | number, string][] = [
    [admin.edge.projectRef, projectRef(baseUrl), 'ref'],
    [admin.edge.baseUrl, baseUrl, 'base'],
    [admin.edge.keyLabel[kind], truncateKey(anonKey), 'anon'],
    [admin.edge.keyKind, admin.edge.keyKinds[kind], 'key-kind'],
    [
      admin.edge.tokenSigning,
      signing.kind === 'asymmetric' ? admin.edge.tokenSignings.asymmetric(signing.alg ?? '') : admin.edge.tokenSignings[signing.kind],
      'token-signing',
    ],
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
