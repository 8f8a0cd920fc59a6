// A journey's own stack with the AI provider double in front of its AI worker, serving the build in
// E2E_WEB_DIR (or dist), and the origin the page must use (the one /env.js announces).
import { resolve } from 'node:path';
import { test } from '@playwright/test';
import { startTestStack, type TestStack } from '../tests/helpers/stack.ts';
import { startAiProviderDouble, type AiProviderDouble } from '../tests/doubles/ai-provider.ts';

export async function startAiJourneyStack(): Promise<{ stack: TestStack; ai: AiProviderDouble; origin: string }> {
  const ai = await startAiProviderDouble();
  const stack = await startTestStack({
    webDir: resolve(process.env.E2E_WEB_DIR ?? 'dist'),
    ai: { baseUrl: ai.url, apiKey: 'test-key', model: 'test-model' },
  });
  const script = await (await fetch(`${stack.url}/env.js`)).text();
  const announced = /"supabaseUrl"\s*:\s*"([^"]+)"/.exec(script)?.[1];
  return { stack, ai, origin: announced ? new URL(announced).origin : stack.url };
}

/** Registers the serial journey's hooks: the stack and double start before its first test and go
 *  after its last. The fields are set once beforeAll has run. */
export function aiJourneyHooks(): { stack: TestStack; ai: AiProviderDouble; origin: string } {
  const ctx = {} as { stack: TestStack; ai: AiProviderDouble; origin: string };
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    Object.assign(ctx, await startAiJourneyStack());
  });
  test.afterAll(async () => {
    await ctx.stack?.destroy();
    await ctx.ai?.stop();
  });
  return ctx;
}
