// The double's starting world: account 1, an administrator whose access token is the API token,
// and three API inboxes named like the product's human specialists, each with one member agent.
// Everything but the names and the account id is random per start, so tests never rely on tokens.
import type { ChatwootStore } from './store.ts';
import type { Account, Agent, Inbox } from './types.ts';

export const SEED_SPECIALISTS = [
  { name: 'Mgr. Jana Kováčová', email: 'jana.kovacova@poradna.test' },
  { name: 'Ing. Peter Horváth', email: 'peter.horvath@poradna.test' },
  { name: 'MUDr. Eva Nováková', email: 'eva.novakova@poradna.test' },
] as const;

export interface Seed {
  account: Account;
  admin: Agent;
  /** The admin first, then one agent per inbox (same order as inboxes). */
  agents: Agent[];
  inboxes: Inbox[];
}

export function seed(store: ChatwootStore, opts: { apiToken?: string } = {}): Seed {
  const account = store.addAccount('Poradňa');
  const admin = store.addAgent({
    name: 'Správca Poradne',
    email: 'admin@poradna.test',
    role: 'administrator',
    accountIds: [account.id],
    ...(opts.apiToken !== undefined ? { accessToken: opts.apiToken } : {}),
  });
  const agents: Agent[] = [admin];
  const inboxes: Inbox[] = [];
  for (const s of SEED_SPECIALISTS) {
    const agent = store.addAgent({ name: s.name, email: s.email, role: 'agent', accountIds: [account.id] });
    agents.push(agent);
    inboxes.push(
      store.addInbox({
        accountId: account.id,
        name: s.name,
        channelType: 'Channel::Api',
        memberIds: [agent.id],
      }),
    );
  }
  return { account, admin, agents, inboxes };
}
