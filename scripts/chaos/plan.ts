// The per-context script of a chaos run and the points where the stack is killed. Pure.
// Invariants (tests/unit/chaos-plan.test.ts): every context sends exactly `messages` messages with
// indices 0..messages-1 in order, each into the conversation it has open; offline and online
// alternate, starting online and ending online; there is a reload half way; the same seed gives the
// same plan.
import { intBetween, type Rng } from './prng.ts';

export type Step =
  | { kind: 'open'; conv: number }
  | { kind: 'send'; index: number; conv: number }
  | { kind: 'offline' }
  | { kind: 'online' }
  | { kind: 'reload' };

export interface PlanRates {
  /** Chance per message to go offline (for 2–8 messages). */
  offline: number;
  /** Chance per message to reload the tab first. */
  reload: number;
  /** Chance per message to switch to another conversation first. */
  switchConv: number;
}

export const DEFAULT_RATES: PlanRates = { offline: 0.05, reload: 0.04, switchConv: 0.1 };

export function contextPlan(rng: Rng, messages: number, conversations: number, rates: PlanRates = DEFAULT_RATES): Step[] {
  const steps: Step[] = [];
  let conv = 0;
  let offlineLeft = 0;
  steps.push({ kind: 'open', conv });
  for (let index = 0; index < messages; index++) {
    if (offlineLeft > 0 && --offlineLeft === 0) steps.push({ kind: 'online' });
    else if (offlineLeft === 0 && rng() < rates.offline) {
      steps.push({ kind: 'offline' });
      offlineLeft = intBetween(rng, 2, 8);
    }
    // Every context reloads at least once, half way through (a short run must include reloads).
    if (index === Math.floor(messages / 2) || rng() < rates.reload) steps.push({ kind: 'reload' });
    if (conversations > 1 && rng() < rates.switchConv) {
      conv = (conv + intBetween(rng, 1, conversations - 1)) % conversations;
      steps.push({ kind: 'open', conv });
    }
    steps.push({ kind: 'send', index, conv });
  }
  if (offlineLeft > 0) steps.push({ kind: 'online' });
  return steps;
}

export type KillKind = 'node' | 'postgres';

/** Kill the Node stack at ~35 % of all sends and PostgreSQL at ~70 %. */
export function killPoints(totalSends: number, kills: boolean): { atSent: number; kind: KillKind }[] {
  if (!kills || totalSends < 3) return [];
  return [
    { atSent: Math.max(1, Math.floor(totalSends * 0.35)), kind: 'node' },
    { atSent: Math.max(2, Math.floor(totalSends * 0.7)), kind: 'postgres' },
  ];
}
