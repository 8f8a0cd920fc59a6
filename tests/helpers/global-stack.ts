// Vitest globalSetup: one stack for a whole test group; tests reach it with inject('stack').
import type { TestProject } from 'vitest/node';
import { startTestStack } from './stack.ts';

export interface ProvidedStack {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  publishableKey: string;
  secretKey: string;
  jwtSecret: string;
  databaseUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: ProvidedStack;
  }
}

export default async function setup(project: TestProject) {
  const stack = await startTestStack();
  project.provide('stack', {
    url: stack.url,
    anonKey: stack.keys.anonKey,
    serviceRoleKey: stack.keys.serviceRoleKey,
    publishableKey: stack.keys.publishableKey,
    secretKey: stack.keys.secretKey,
    jwtSecret: stack.keys.jwtSecret,
    databaseUrl: stack.databaseUrl,
  });
  return async () => {
    await stack.destroy();
  };
}
