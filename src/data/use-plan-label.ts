// The plan shown in the header: the impersonated account's (UNKNOWN by the spec), else the account
// row of the local store, else the cached/fetched account; null while none is known ('Loading...').
import { account as localAccount } from '../../sync/queries.ts';
import { useAccount } from '../account/account-context.ts';
import { useSyncQuery } from './use-sync-query.ts';

export function usePlanLabel(): string | null {
  const { account, isImpersonating } = useAccount();
  const local = useSyncQuery((db) => localAccount(db), []);
  if (isImpersonating) return account?.plan ?? null;
  return local?.value?.plan ?? account?.plan ?? null;
}
