// Vitest globalSetup of the `server-configured` project: the shared stack of the attack files, started
// with Chatwoot (the Chatwoot double, its token, webhook secret and the saved connection) and an AI
// provider (the provider double) configured, as issue 36 asks every attack row to hold there too.
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { startAiProviderDouble } from '../doubles/ai-provider.ts';
import { startChatwootDouble } from '../doubles/chatwoot/server.ts';
import { saveChatwootConfig, type ProvidedConfigured } from './configured.ts';
import { provideStack } from './global-stack.ts';
import { startStackProcess } from './stack-process.ts';

export default async function setup(project: TestProject) {
  const provider = await startAiProviderDouble();
  const chatwoot = await startChatwootDouble();
  const configured: ProvidedConfigured = {
    ai: { baseUrl: provider.url, apiKey: 'sk-test', model: 'fake-model' },
    // The doubles listen on loopback: the explicit opt-in for a Chatwoot on a private network.
    chatwoot: { apiToken: chatwoot.apiToken, webhookSecret: randomBytes(24).toString('hex'), allowPrivateUrls: true },
    chatwootUrl: chatwoot.url,
    chatwootAccountId: chatwoot.accountId,
  };
  // In a process of its own, as every group's shared stack (global-stack.ts).
  const stack = await startStackProcess({ overrides: { ai: configured.ai, chatwoot: configured.chatwoot } });
  await saveChatwootConfig(stack.databaseUrl, configured);
  chatwoot.addWebhook(
    `${stack.url}/functions/v1/chatwoot-webhook?secret=${configured.chatwoot.webhookSecret}`,
    ['message_created', 'message_updated', 'conversation_status_changed', 'conversation_updated'],
    configured.chatwoot.webhookSecret,
  );
  project.provide('configured', configured);
  provideStack(project, stack);
  return async () => {
    await stack.destroy();
    await chatwoot.stop();
    await provider.stop();
  };
}
