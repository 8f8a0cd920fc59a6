// Vitest globalSetup: one stack for a whole test group; tests reach it with inject('stack').
import type { TestProject } from 'vitest/node';
import { startTestStack, type TestStack } from './stack.ts';

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

/** Hands a group's stack to its test files (inject('stack')). */
export function provideStack(project: TestProject, stack: TestStack): void {
  project.provide('stack', {
    url: stack.url,
    anonKey: stack.keys.anonKey,
    serviceRoleKey: stack.keys.serviceRoleKey,
    publishableKey: stack.keys.publishableKey,
    secretKey: stack.keys.secretKey,
    jwtSecret: stack.keys.jwtSecret,
    databaseUrl: stack.databaseUrl,
  });
}

export default async function setup(project: TestProject) {
  const stack = await startTestStack();
  provideStack(project, stack);
  return async () => {
    await stack.destroy();
  };
}
