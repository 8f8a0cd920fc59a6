// test-runner "e2e": a full round trip with a temporary account: create a user, sign in, start a
// conversation with an AI specialist, send, receive the AI reply, mark read, and clean up.
import { anonClient, userClient, type Db } from '../clients.ts';
import type { FunctionEnv } from '../types.ts';
import { assert, runChecks, type SuiteResult } from './suite.ts';

const REPLY_TIMEOUT_MS = 25_000;

export async function e2eSuite(env: FunctionEnv, service: Db): Promise<SuiteResult> {
  const email = `test-runner-${crypto.randomUUID().slice(0, 8)}@example.test`;
  const password = `Tr-${crypto.randomUUID()}1`;
  let db: Db | undefined;
  let conversationId = '';
  let userMessageId = '';
  let replyId = '';
  const user = () => {
    assert(db, 'not signed in');
    return db;
  };
  return runChecks(`E2E: dočasný účet ${email}`, [
    {
      name: 'create a temporary user',
      run: async () => {
        const r = await service.auth.admin.createUser({ email, password, email_confirm: true });
        assert(!r.error, r.error?.message ?? '');
      },
    },
    {
      name: 'sign in with the password',
      run: async () => {
        const r = await anonClient(env).auth.signInWithPassword({ email, password });
        assert(r.data.session, r.error?.message ?? 'no session');
        db = userClient(env, r.data.session.access_token);
      },
    },
    {
      name: 'the account was created automatically',
      run: async () => {
        const r = await user().from('accounts').select('name, plan').single<{ name: string; plan: string }>();
        assert(r.data, r.error?.message ?? 'no account');
        return `${r.data.name} (${r.data.plan})`;
      },
    },
    {
      name: 'start a conversation with an AI specialist',
      run: async () => {
        const r = await user().rpc('ensure_first_conversation');
        assert(!r.error, r.error?.message ?? '');
        conversationId = (r.data as { conversation_id: string }).conversation_id;
        assert(conversationId, 'no conversation id');
      },
    },
    {
      name: 'send a message',
      run: async () => {
        const r = await user().rpc('send_message', {
          p_conversation_id: conversationId,
          p_text: 'Dobrý deň, potrebujem poradiť s kampaňou na sociálnych sieťach.',
          p_client_correlation_id: crypto.randomUUID(),
        });
        assert(!r.error, r.error?.message ?? '');
        userMessageId = (r.data as { id: string }).id;
      },
    },
    {
      name: 'receive the AI reply',
      run: async () => {
        const end = Date.now() + REPLY_TIMEOUT_MS;
        while (Date.now() < end) {
          const r = await user()
            .from('messages')
            .select('id, text, direction')
            .eq('conversation_id', conversationId)
            .in('direction', ['specialist', 'system'])
            .order('created_at', { ascending: false })
            .limit(1);
          const last = r.data?.[0] as { id: string; direction: string; text: string } | undefined;
          if (last && last.id !== userMessageId && (await isAfter(user(), last.id, userMessageId))) {
            assert(last.direction === 'specialist', `the AI failed: ${last.text}`);
            replyId = last.id;
            return `${last.text.slice(0, 60)}…`;
          }
          await new Promise((r2) => setTimeout(r2, 500));
        }
        throw new Error(`no reply within ${REPLY_TIMEOUT_MS / 1000} s`);
      },
    },
    {
      name: 'mark the conversation read',
      run: async () => {
        const r = await user().rpc('mark_read', { p_conversation_id: conversationId, p_message_id: replyId });
        assert(!r.error, r.error?.message ?? '');
        const counts = await user().rpc('get_unread_counts');
        const mine = (counts.data as { conversation_id: string; unread_count: number }[]).find((c) => c.conversation_id === conversationId);
        assert(!mine || mine.unread_count === 0, `unread is ${mine?.unread_count}`);
      },
    },
    {
      name: 'clean up the temporary account',
      run: async () => {
        const r = await service.rpc('admin_delete_user', { p_email: email });
        assert(!r.error, r.error?.message ?? '');
      },
    },
  ]);
}

async function isAfter(db: Db, candidate: string, anchor: string): Promise<boolean> {
  const r = await db.from('messages').select('id, created_at').in('id', [candidate, anchor]);
  const rows = (r.data ?? []) as { id: string; created_at: string }[];
  const c = rows.find((x) => x.id === candidate);
  const a = rows.find((x) => x.id === anchor);
  return Boolean(c && a && c.created_at > a.created_at);
}
