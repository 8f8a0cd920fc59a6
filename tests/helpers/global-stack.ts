// Vitest globalSetup: one stack for a whole test group; tests reach it with inject('stack').
// The stack runs in a process of its own (stack-child.ts): in Vitest's main process, where globalSetup
// runs, one unhandled rejection anywhere in the stack ended the whole run without its report.
import type { TestProject } from 'vitest/node';
import { startStackProcess, type ChildStack } from './stack-process.ts';

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
export function provideStack(project: TestProject, stack: Pick<ChildStack, 'url' | 'keys' | 'databaseUrl'>): void {
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
  const stack = await startStackProcess({ overrides: {} });
  provideStack(project, stack);
  return async () => {
    await stack.destroy();
  };
}
