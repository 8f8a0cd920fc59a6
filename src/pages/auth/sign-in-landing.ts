// After a link sign-in: wait for the account (spec retry timings), make sure it has its first
// conversation, and name the page to land on.
import { waitForAccount } from '../../auth/account-wait.ts';
import { accountHasConversations, ensureFirstConversation, fetchAccountIdForUser } from '../../data/remote-account.ts';

export async function landingPathAfterSignIn(userId: string, isCancelled: () => boolean): Promise<string> {
  const accountId = await waitForAccount(() => fetchAccountIdForUser(userId), { isCancelled });
  if (!accountId || isCancelled()) return '/app/chats';
  try {
    if (await accountHasConversations(accountId)) return '/app/chats';
    const conversationId = await ensureFirstConversation();
    return conversationId ? `/app/chats/${encodeURIComponent(conversationId)}` : '/app/chats';
  } catch (err) {
    console.warn('first conversation:', err);
    return '/app/chats';
  }
}
