import { useEffect } from 'react';
import { AccountProvider } from '../account/AccountProvider.tsx';
import { SyncProvider } from '../data/SyncProvider.tsx';
import { AppLayout } from '../layout/AppLayout.tsx';
import { PushBridge } from '../pwa/push-bridge.tsx';
import { preloadUserPages } from './lazy-pages.tsx';

/** Everything behind the sign-in guard shares one account state, one sync engine and the standard layout. */
export function SignedInArea() {
  // The chat, specialists and settings chunks follow once the first screen is up and the browser idles.
  useEffect(preloadUserPages, []);
  return (
    <AccountProvider>
      <SyncProvider>
        <AppLayout />
        <PushBridge />
      </SyncProvider>
    </AccountProvider>
  );
}
