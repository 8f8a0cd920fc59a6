// What a Vitest group's shared stack hands its test files (inject('stack')).
import type { TestProject } from 'vitest/node';
import type { ChildStack } from './stack-process.ts';

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
