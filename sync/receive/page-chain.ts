// R19.7: a pull's page requests, one after another as soon as the previous page arrived, up to
// `ahead` pages asked and not yet taken (R5.1's prefetch, deeper): the link is faster than the
// store, so pages wait, and the pull stores the waiting ones together (pull.ts). Still one request
// in flight at a time (the pacer measures one transfer, R5.8), and pages are taken in order: a
// failed request surfaces only when the pages before it were taken.
import type { RemotePullPage } from '../model/remote-types.ts';

interface Slot {
  from: number;
  page: Promise<RemotePullPage>;
  arrived: RemotePullPage | null;
}

export interface ChainedPage {
  page: RemotePullPage;
  /** The cursor the page was asked from. */
  from: number;
}

export class PageChain {
  private slots: Slot[] = [];
  /** The last page asked, taken or not: the next one is asked from its cursor. */
  private tail: Slot | null = null;
  private generation = 0;
  /** Whether pages beyond the first are asked (held until R5.11's head has arrived, R19.12). */
  private flowing = false;

  constructor(
    private readonly fetchPage: (from: number) => Promise<RemotePullPage>,
    private readonly ahead: number,
  ) {}

  /** Asks from `from` (again): pages asked before are dropped. The next pages wait for release(). */
  start(from: number): void {
    this.generation++;
    this.slots = [];
    this.tail = null;
    this.flowing = false;
    this.ask(from);
  }

  /** The pages after the first may be asked (R5.1; once R5.11's head has arrived, R19.12). */
  release(): void {
    this.flowing = true;
    this.topUp();
  }

  /** Whether a page is asked and not taken. */
  get pending(): boolean {
    return this.slots.length > 0;
  }

  /** The next page in order, waiting for it. */
  async next(): Promise<ChainedPage> {
    const slot = this.slots[0];
    if (!slot) throw new Error('PageChain: no page asked');
    const page = await slot.page;
    return this.take(slot, page);
  }

  /** The next page when it has already arrived, without taking it. */
  peek(): ChainedPage | null {
    const slot = this.slots[0];
    return slot?.arrived ? { page: slot.arrived, from: slot.from } : null;
  }

  /** Takes the page peek() showed. */
  takeArrived(): ChainedPage {
    const slot = this.slots[0];
    if (!slot?.arrived) throw new Error('PageChain: no page arrived');
    return this.take(slot, slot.arrived);
  }

  private take(slot: Slot, page: RemotePullPage): ChainedPage {
    if (this.slots[0] === slot) this.slots.shift();
    this.topUp();
    return { page, from: slot.from };
  }

  private ask(from: number): void {
    const generation = this.generation;
    const slot: Slot = { from, page: this.fetchPage(from), arrived: null };
    // Awaited when its turn comes; kept from being reported as unhandled until then.
    slot.page.catch(() => undefined);
    this.slots.push(slot);
    this.tail = slot;
    void slot.page.then(
      (page) => {
        slot.arrived = page;
        if (generation === this.generation) this.topUp();
      },
      () => undefined,
    );
  }

  /** Asks the next page when the last asked has arrived and promises more, and fewer than `ahead` wait. */
  private topUp(): void {
    if (!this.flowing || this.slots.length >= this.ahead) return;
    const last = this.tail;
    if (!last?.arrived) return;
    if (!last.arrived.has_more || last.arrived.cursor <= last.from) return;
    const from = last.arrived.cursor;
    this.ask(from);
  }
}
