// Vitest globalSetup of the `server-configured` project: the shared stack of the attack files, started
// with Chatwoot (the Chatwoot double, its token, webhook secret and the saved connection) and an AI
// provider (the provider double) configured, as issue 36 asks every attack row to hold there too.
// Started with the other groups' stacks (group-stacks.ts `configured`).
import type { TestProject } from 'vitest/node';
import { groupSetup } from './group-stacks.ts';

export default function setup(project: TestProject) {
  return groupSetup(project);
}
