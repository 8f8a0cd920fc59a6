// ai-reply-worker: the hosted-Supabase way to drain AI jobs. Only the service role may call it, and
// racing the local stack's own worker still leaves exactly one reply per user message.
import { randomUUID } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { anonClient, serviceClient, uniqueEmail } from '../helpers/clients.ts';
import { signUpConfirmed } from '../helpers/signup.ts';

const stack = inject('stack');
const url = `${stack.url}/functions/v1/ai-reply-worker`;

async function post(token: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
  return { status: res.status, body: await res.json() };
}

describe('ai-reply-worker', () => {
  it('refuses the anon key and a member', async () => {
    expect((await post(stack.anonKey)).status).toBe(403);
    const member = anonClient(stack);
    const { data } = await signUpConfirmed(stack, member, { email: uniqueEmail('aiw'), password: 'heslo12345' });
    expect((await post(data.session!.access_token)).status).toBe(403);
  });

  it('drains jobs with the service role, racing the local worker, with exactly one reply per job', async () => {
    const member = anonClient(stack);
    await signUpConfirmed(stack, member, { email: uniqueEmail('aiw'), password: 'heslo12345' });
    const conv = await member.rpc('ensure_first_conversation');
    const conversationId = (conv.data as { conversation_id: string }).conversation_id;
    const texts = ['Potrebujem pomôcť s kampaňou', 'A ešte s rozpočtom', 'A s newsletterom'];
    for (const t of texts) {
      await member.rpc('send_message', { p_conversation_id: conversationId, p_text: t, p_client_correlation_id: randomUUID() });
      const r = await post(stack.serviceRoleKey);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ processed: expect.any(Number) });
    }
    // Messages sent within a few seconds share one job (issue 36 N5, 20261128130000_ai_cost_limits.sql):
    // one to three jobs, each answered exactly once.
    const svc = serviceClient(stack);
    let jobs: { id: string; status: string }[] = [];
    for (let i = 0; i < 150; i++) {
      const { data } = await svc.from('ai_reply_jobs').select('id, status').eq('conversation_id', conversationId);
      jobs = data ?? [];
      if (jobs.length && jobs.every((j) => j.status === 'done')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(jobs.length).toBeGreaterThanOrEqual(1);
    expect(jobs.every((j) => j.status === 'done')).toBe(true);
    const { data: msgs } = await svc.from('messages').select('direction, client_correlation_id').eq('conversation_id', conversationId).eq('source', 'ai');
    const fromJobs = (msgs ?? []) as { direction: string; client_correlation_id: string }[];
    expect(fromJobs).toHaveLength(jobs.length);
    expect(new Set(fromJobs.map((m) => m.client_correlation_id))).toEqual(new Set(jobs.map((j) => j.id)));
    expect(fromJobs.every((m) => m.direction === 'specialist')).toBe(true);
  });
});
