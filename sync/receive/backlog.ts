// R5.10: a backlog's progress for the status, from a pull's stored pages. Counted in change numbers
// of the account's feed from the cursor where the backlog was first seen, so the count keeps growing
// across pulls cut and resumed; cleared by the page that says there is no more.
import type { PullStep } from './pull.ts';

export interface PullProgress {
  done: number;
  total: number;
}

export function backlogTracker(publish: (p: PullProgress | null) => void): (step: PullStep) => void {
  let from: number | null = null;
  return (step) => {
    if (!step.hasMore) {
      from = null;
      publish(null);
      return;
    }
    from ??= step.from;
    // A later head (rows written meanwhile) grows the total; it never falls below what is done.
    publish({ done: step.cursor - from, total: Math.max(step.head, step.cursor) - from });
  };
}
