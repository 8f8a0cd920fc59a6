// Members with push devices on a test stack (the push delivery and push-dispatch tests): a fresh
// signed-up member with a first conversation, a device subscribed at the fake push service, and a
// specialist's message that queues a notification.
import { randomUUID } from 'node:crypto';
import { anonClient, uniqueEmail, type Client } from '../helpers/clients.ts';
import { signUpConfirmed } from '../helpers/signup.ts';
import type { TestStack } from '../helpers/stack.ts';
import { deviceKeys, type DeviceKeys, type FakePushService } from './push-helpers.ts';

export interface Member {
  client: Client;
  userId: string;
  conversationId: string;
}

/** `world` is read at each call: the tests' stack and fake service are made in beforeAll. */
export function pushMembers(world: () => { stack: TestStack; fake: FakePushService; svc: Client }) {
  async function member(): Promise<Member> {
    const { stack } = world();
    const client = anonClient({ url: stack.url, anonKey: stack.keys.anonKey });
    const { data, error } = await signUpConfirmed(stack, client, { email: uniqueEmail('push'), password: 'heslo12345' });
    if (error) throw error;
    const conv = await client.rpc('ensure_first_conversation');
    if (conv.error) throw conv.error;
    return { client, userId: data.user!.id, conversationId: (conv.data as { conversation_id: string }).conversation_id };
  }

  async function subscribe(m: Member, path = `/d/${randomUUID()}`): Promise<{ path: string; keys: DeviceKeys; endpoint: string }> {
    const keys = deviceKeys();
    const endpoint = world().fake.url + path;
    const r = await m.client.rpc('push_subscribe', { p_endpoint: endpoint, p_p256dh: keys.p256dh, p_auth: keys.auth, p_user_agent: 'vitest' });
    if (r.error) throw r.error;
    return { path, keys, endpoint };
  }

  async function specialistSays(conversationId: string, text: string): Promise<string> {
    const r = await world()
      .svc.from('messages')
      .insert({ conversation_id: conversationId, text, type: 'text', direction: 'specialist', source: 'chatwoot' })
      .select('id')
      .single<{ id: string }>();
    if (r.error) throw r.error;
    return r.data.id;
  }

  return { member, subscribe, specialistSays };
}
