// Vitest globalSetup: one stack for a whole test group; tests reach it with inject('stack').
// The stack runs in a process of its own (stack-child.ts): in Vitest's main process, where globalSetup
// runs, one unhandled rejection anywhere in the stack ended the whole run without its report.
// Every group's stack of the run starts at once, on the first group's setup (group-stacks.ts).
import type { TestProject } from 'vitest/node';
import { groupSetup } from './group-stacks.ts';

export type { ProvidedStack } from './provide-stack.ts';

export default function setup(project: TestProject) {
  return groupSetup(project);
}
