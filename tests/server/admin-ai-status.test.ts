// Issue 39 leftover: the admin's diagnostics say whether an AI provider is configured and reachable
// (function admin-ai-status). Two real stacks: the shared one (no provider: the demo responder) and
// one whose AI secrets point at the streaming provider double; then the double is stopped.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startAiProviderDouble, type AiProviderDouble } from '../doubles/ai-provider.ts';
import { startTestStack, type TestStack } from '../helpers/stack.ts';
import { SEEDED, call, freshUser, refOf, signIn, type StackRef } from './functions-helpers.ts';

let ai: AiProviderDouble;
let stack: TestStack;
let ref: StackRef;

beforeAll(async () => {
  ai = await startAiProviderDouble();
  stack = await startTestStack({ ai: { baseUrl: ai.url, apiKey: 'sk-test', model: 'fake-model' } });
  ref = refOf(stack);
});
afterAll(async () => {
  await stack?.destroy();
  await ai?.stop();
});

describe('admin-ai-status', () => {
  it('without a provider the admin reads that the demo responder answers', async () => {
    const shared = inject('stack');
    const admin = await signIn(shared, SEEDED.admin);
    const res = await call(admin, 'admin-ai-status', {});
    expect(res).toEqual({ status: 200, body: expect.objectContaining({ configured: false, provider: 'demo', reachable: null }) });
  });

  it('a configured provider is reported by host and model, reachable; the key never leaves the server', async () => {
    const admin = await signIn(ref, SEEDED.admin);
    const res = await call(admin, 'admin-ai-status', {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ configured: true, provider: 'openai-compatible', host: new URL(ai.url).host, model: 'fake-model', reachable: true });
    expect(JSON.stringify(res.body)).not.toContain('sk-test');
  });

  it('attack: a member cannot read the provider status (403)', async () => {
    const member = await freshUser(ref, 'ai-status');
    const res = await call(member.client, 'admin-ai-status', {});
    expect(res.status).toBe(403);
  });

  it('a provider that does not answer is reported unreachable', async () => {
    await ai.stop();
    const admin = await signIn(ref, SEEDED.admin);
    const res = await call(admin, 'admin-ai-status', {});
    expect(res.body).toMatchObject({ configured: true, reachable: false });
  });
});
