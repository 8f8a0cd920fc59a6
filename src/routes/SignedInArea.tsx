import { AccountProvider } from '../account/AccountProvider.tsx';
import { AppLayout } from '../layout/AppLayout.tsx';

/** Everything behind the sign-in guard shares one account state and the standard layout. */
export function SignedInArea() {
  return (
    <AccountProvider>
      <AppLayout />
    </AccountProvider>
  );
}
