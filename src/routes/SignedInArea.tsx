import { AccountProvider } from '../account/AccountProvider.tsx';
import { SyncProvider } from '../data/SyncProvider.tsx';
import { AppLayout } from '../layout/AppLayout.tsx';

/** Everything behind the sign-in guard shares one account state, one sync engine and the standard layout. */
export function SignedInArea() {
  return (
    <AccountProvider>
      <SyncProvider>
        <AppLayout />
      </SyncProvider>
    </AccountProvider>
  );
}
