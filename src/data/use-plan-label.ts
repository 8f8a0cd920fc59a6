// The plan shown in the header: the impersonated account's (UNKNOWN by the spec), else the account
// row of the local store, else the cached/fetched account; null while none is known ('Loading...').
import { account as localAccount } from '../../sync/queries.ts';
import { useAccount } from '../account/account-context.ts';
import { useSyncQuery } from './use-sync-query.ts';

export function usePlanLabel(): string | null {
  const { account, isImpersonating } = useAccount();
  const local = useSyncQuery((db) => localAccount(db), []);
  const row = local?.value;
  if (isImpersonating) {
    // The spec's placeholder plan UNKNOWN is not shown (it read 'UNKNOWN' in the header, issue 21
    // item 13): the local store syncs the impersonated account, so its row has the real plan; until
    // it arrives the badge says 'Loading...'.
    if (row && account && row.id === account.id && row.plan) return row.plan;
    return account?.plan && account.plan !== 'UNKNOWN' ? account.plan : null;
  }
  return row?.plan ?? account?.plan ?? null;
}
