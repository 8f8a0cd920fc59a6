// Stopping impersonation clears the local state at once (works offline) and tells the server.
import { stopImpersonationOnServer } from '../data/remote-account.ts';
import { clearImpersonation } from './impersonation-store.ts';

export async function stopImpersonation(): Promise<void> {
  clearImpersonation();
  try {
    await stopImpersonationOnServer();
  } catch (err) {
    console.warn('stop_impersonation:', err);
  }
}
