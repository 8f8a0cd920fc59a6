// Notifications being sent at once (issue 36 N3), for the local push worker and the hosted
// push-dispatch alike. Each admitted notification is sent in the background; its user's slot
// (per-user.ts) and its place here are freed once its answers are recorded, so the caller can claim
// the next due notifications as soon as there is room: one device that never answers delays only its
// own notification, never one claimed after it. Invariant: at most `max` sends are in flight.
import type { Db } from '../clients.ts';
import type { FunctionEnv } from '../types.ts';
import { deliver, type DispatchOutcome, type VapidKeys } from './dispatch.ts';
import { UserSlots, type Admitted } from './per-user.ts';

export class InFlightSends {
  private readonly sends = new Set<Promise<void>>();
  /** Notifications in flight per user, taken by admit() and freed here when a send ends. */
  readonly slots = new UserSlots();
  /** What the ended sends reported. */
  readonly total: DispatchOutcome = { notifications: 0, sent: 0, gone: 0, failed: 0 };

  constructor(
    private readonly max: number,
    private readonly onError: (err: unknown) => void,
    private readonly onRecorded: () => void = () => undefined,
  ) {}

  get size(): number {
    return this.sends.size;
  }

  /** How many more may be claimed now. */
  get room(): number {
    return Math.max(0, this.max - this.sends.size);
  }

  launch(db: Db, { notification, user }: Admitted, vapid: VapidKeys, env: FunctionEnv): void {
    const sending: Promise<void> = deliver(db, notification, vapid, env)
      .then(
        (o) => {
          this.total.notifications += o.notifications;
          this.total.sent += o.sent;
          this.total.gone += o.gone;
          this.total.failed += o.failed;
          this.onRecorded();
        },
        (err: unknown) => this.onError(err),
      )
      .finally(() => {
        this.sends.delete(sending);
        this.slots.free(user);
      });
    this.sends.add(sending);
  }

  /** Resolves once there is room for another send. */
  async roomFree(): Promise<void> {
    while (this.sends.size >= this.max) await Promise.race(this.sends);
  }

  /** Resolves when a send ends or after `ms`, whichever is first. */
  async nextEndOr(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = new Promise<void>((r) => (timer = setTimeout(r, ms)));
    try {
      await Promise.race([tick, ...this.sends]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves once every send's answers are recorded. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.sends]);
  }
}
