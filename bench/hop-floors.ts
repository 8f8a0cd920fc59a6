// Row 4's floor column (issue 19: "where a goal cannot be met, show with the breakdown which hop holds
// it and what the floor of that hop is"): for each hop, the same measurement with no app code, in the
// same run, on the same stack and browser, interleaved with the sends (sample() after each block):
//   - Enter → request started: in the sender's page, a keydown listener on a detached element (the
//     event reaches no app listener) that calls fetch; keydown → CDP Network.requestWillBeSent, as
//     the hop is read.
//   - request started → row written: that fetch is a no-op RPC (`bench_floor`, created here, never in
//     migrations) through the same gateway + PostgREST + PostgreSQL as the user; it answers
//     clock_timestamp() taken inside the database, the same clock as the hop's commit stamp. Its full
//     round trip (request started → response read) is kept too.
//   - commit → NOTIFY received, NOTIFY → frame sent: RealtimeProbe (realtime-floor.ts, the mechanism
//     of tests/server/realtime-latency.test.ts) against this stack's realtime server.
//   - frame sent → frame received, frame → event handled, frame → painted: a bare one-script page
//     (served from loopback by the bench; row 1b's floor is a data: URL, but see PaintPage.open) in
//     a browser of its own (same Chromium, flags and viewport as B's; a second tab in B's browser
//     made B's app page a background tab, whose timers Chromium throttles to 1 s: B's paint hop read
//     867 ms) that joins the same realtime server
//     over a raw Phoenix socket and appends a text node per message; frame read by CDP as the hop is,
//     painted = the frame after the append (rAF, then a macrotask) as row 4 reads B.
//     The same page puts each row into its own IndexedDB store as it paints (one-row readwrite
//     transaction, default durability, as Dexie's): frame → committed is the floor of B's store hop.
import { createServer } from 'node:http';
import type { Page } from 'playwright-core';
import type pg from 'pg';
import type { DeliveryTiming } from '../supabase/local/realtime/deps.ts';
import { realtimeUrl, signToken, waitFor } from '../tests/server/realtime-helpers.ts';
import type { RunningStack } from '../supabase/local/stack.ts';
import { openClient, type Client } from './browser.ts';
import { isoToEpochMs, NetRecorder, nodeEpoch, type HopKey } from './hops.ts';
import { RealtimeProbe } from './realtime-floor.ts';

/** What the floors use of the stack: its address, keys and database. */
type StackAddress = Pick<RunningStack, 'url' | 'keys' | 'databaseUrl'>;

/** Floor samples (ms) per hop key (`from→to` of hops.ts), and the no-op RPC's full round trip. */
export type FloorSamples = Map<HopKey, number[]>;

export interface FloorSources {
  stack: StackAddress;
  /** A superuser connection to the stack's database (creates and drops the no-op RPC). */
  db: pg.Client;
  /** The signed-in user of the sender's page (the RPC runs as this user, like send_message). */
  userId: string;
  /** Adds a listener to the stack's realtime onDelivery hook; answers its removal. */
  tapDeliveries: (fn: (d: DeliveryTiming) => void) => () => void;
}

const RPC = 'bench_floor';

export class HopFloors {
  readonly samples: FloorSamples = new Map();
  /** Request started → response read of the no-op RPC (what the sender's page waits for). */
  readonly roundTrip: number[] = [];

  private constructor(
    private readonly src: FloorSources,
    private readonly sender: Client,
    private readonly senderNet: NetRecorder,
    private readonly token: string,
    private readonly probe: RealtimeProbe,
    private readonly untap: () => void,
    private readonly paint: PaintPage,
  ) {}

  /** `sender`: the page whose Enter is timed (its NetRecorder too). */
  static async open(src: FloorSources, sender: Client, senderNet: NetRecorder): Promise<HopFloors> {
    const { stack, db } = src;
    // SECURITY: a throwaway function of the bench's throwaway database, callable by signed-in users
    // only (the strict bootstrap grants nothing by default), dropped in close().
    await db.query(`create or replace function public.${RPC}() returns double precision
      language sql volatile set search_path = '' as $$ select extract(epoch from clock_timestamp()) * 1000 $$;
      revoke all on function public.${RPC}() from public, anon;
      grant execute on function public.${RPC}() to authenticated;
      notify pgrst, 'reload schema';`);
    const token = await signToken(stack.keys.jwtSecret, { sub: src.userId });
    // PostgREST reloads its schema cache asynchronously: wait until the function answers.
    await waitFor(async () => {
      const r = await fetch(`${stack.url}/rest/v1/rpc/${RPC}`, {
        method: 'POST',
        headers: { apikey: stack.keys.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      await r.body?.cancel();
      return r.ok;
    }, `${RPC} in PostgREST's schema cache`, 30_000);
    const probe = await RealtimeProbe.open({ databaseUrl: stack.databaseUrl, url: stack.url, anonKey: stack.keys.anonKey, jwtSecret: stack.keys.jwtSecret });
    const untap = src.tapDeliveries(probe.record);
    try {
      const paint = await PaintPage.open(stack, probe);
      return new HopFloors(src, sender, senderNet, token, probe, untap, paint);
    } catch (err) {
      untap();
      await probe.close();
      throw err;
    }
  }

  private push(key: HopKey, v: number): void {
    if (!Number.isFinite(v)) return;
    const xs = this.samples.get(key) ?? [];
    xs.push(v);
    this.samples.set(key, xs);
  }

  /** `n` samples of every floor, one at a time (nothing else of the bench runs meanwhile). */
  async sample(n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      this.senderNet.clear();
      const f = await keydownFetch(this.sender.page, `${this.sender.baseUrl}/rest/v1/rpc/${RPC}`, this.src.stack.keys.anonKey, this.token);
      const request = this.senderNet.requestAfter(`/rpc/${RPC}`, f.at);
      this.push('enter→request', request - f.at);
      this.push('request→commit', f.dbAt - request);
      const wire = this.senderNet.wireAfter(`/rpc/${RPC}`, f.at);
      this.push('request→wire', wire - request);
      this.push('wire→commit', f.dbAt - wire);
      if (Number.isFinite(request)) this.roundTrip.push(f.doneAt - request);
    }
    for (const { timing } of await this.probe.run(n)) {
      const commit = isoToEpochMs(timing.commitTimestamp);
      this.push('commit→notified', nodeEpoch(timing.notifiedAt) - commit);
      this.push('notified→sent', timing.sentAt - timing.notifiedAt);
    }
    for (let i = 0; i < n; i++) {
      const s = await this.paint.one(i);
      this.push('sent→frame', s.frame - s.sent);
      this.push('frame→event', s.event - s.frame);
      this.push('frame→stored', s.stored - s.frame);
      this.push('frame→painted', s.painted - s.frame);
    }
  }

  async close(): Promise<void> {
    await this.paint.close().catch(() => undefined);
    this.untap();
    await this.probe.close();
    await this.src.db.query(`drop function if exists public.${RPC}(); notify pgrst, 'reload schema';`);
  }
}

/** Keydown on a detached element whose listener calls fetch (POST, as the app's RPC). Epoch ms. */
async function keydownFetch(page: Page, url: string, apikey: string, token: string): Promise<{ at: number; dbAt: number; doneAt: number }> {
  return page.evaluate(
    async ({ url, apikey, token }) => {
      const el = document.createElement('textarea');
      let answer: Promise<number> | undefined;
      el.addEventListener('keydown', () => {
        answer = fetch(url, {
          method: 'POST',
          headers: { apikey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        }).then((r) => r.json() as Promise<number>);
      });
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const at = performance.timeOrigin + performance.now();
      el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
      const dbAt = await answer!;
      return { at, dbAt, doneAt: performance.timeOrigin + performance.now() };
    },
    { url, apikey, token },
  );
}

/** The bare page of the receive-side floors, in a browser of its own, open for the whole row. */
class PaintPage {
  private constructor(
    private readonly page: Page,
    private readonly browser: Client,
    private readonly net: NetRecorder,
    private readonly probe: RealtimeProbe,
    private readonly owner: string,
  ) {}

  static async open(stack: StackAddress, probe: RealtimeProbe): Promise<PaintPage> {
    const owner = crypto.randomUUID();
    const browser = await openClient('floor', stack.url);
    const { page } = browser;
    const net = new NetRecorder(browser);
    try {
      const cfg = {
        url: realtimeUrl(stack.url, stack.keys.anonKey),
        table: probe.table.name,
        owner,
        token: await signToken(stack.keys.jwtSecret, { sub: owner }),
      };
      const html = `<!doctype html><meta name="viewport" content="width=device-width"><body><script>${paintScript(cfg)}</script>`;
      // Served from loopback by the bench itself: Chromium's Local Network Access checks refuse a
      // data: page's (opaque, public) websocket to 127.0.0.1; another port is another origin, so the
      // app's service worker of this profile does not take the page either.
      const server = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(html);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const closeServer = () => new Promise<void>((r) => server.close(() => r()));
      const addr = server.address();
      try {
        await page.goto(`http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/`);
      } finally {
        // The page is loaded; it needs its server no more.
        await closeServer();
      }
      await page.waitForFunction(() => (window as unknown as { __floor: { joined: string } }).__floor.joined !== '' && (window as unknown as { db?: unknown }).db !== undefined, null, { timeout: 30_000, polling: 20 });
      const joined = await page.evaluate(() => (window as unknown as { __floor: { joined: string } }).__floor.joined);
      if (joined !== 'ok') throw new Error(`floor page: realtime join answered ${joined}`);
      return new PaintPage(page, browser, net, probe, owner);
    } catch (err) {
      net.stop();
      await browser.close();
      throw err;
    }
  }

  /** One row for the page's subscriber: when it was sent, its frame received, handled, painted (epoch ms). */
  async one(n: number): Promise<{ sent: number; frame: number; event: number; stored: number; painted: number }> {
    this.net.clear();
    const label = `floor ${n} ${crypto.randomUUID()}`;
    const id = await this.probe.insert(this.owner, n, label);
    await this.page.waitForFunction((l) => {
      const g = (window as unknown as { __floor: { got: Record<string, { painted: number; stored: number }> } }).__floor.got[l];
      return g !== undefined && Number.isFinite(g.painted) && Number.isFinite(g.stored);
    }, label, {
      timeout: 30_000,
      polling: 10,
    });
    const got = await this.page.evaluate((l) => (window as unknown as { __floor: { got: Record<string, { event: number; painted: number; stored: number }> } }).__floor.got[l]!, label);
    const d = await waitFor(() => this.probe.deliveries.find((x) => x.pk.id === id), `delivery of floor row ${n}`);
    return { sent: nodeEpoch(d.sentAt), frame: this.net.frameWith(label), event: got.event, stored: got.stored, painted: got.painted };
  }

  async close(): Promise<void> {
    this.net.stop();
    await this.browser.close();
  }
}

/** The page's only script: a raw Phoenix (vsn 2.0.0) socket; per change, append the label and stamp the frame after, store the row and stamp its commit. */
function paintScript(cfg: { url: string; table: string; owner: string; token: string }): string {
  return `
const cfg = ${JSON.stringify(cfg).replace(/</g, '\\u003c')};
window.__floor = { joined: '', got: {} };
let ref = 1;
var db; // (var: a property of window, which the bench waits on)
const req = indexedDB.open('floor-' + Date.now(), 1);
req.onupgradeneeded = () => req.result.createObjectStore('m', { keyPath: 'id' });
req.onsuccess = () => { db = req.result; };
const ws = new WebSocket(cfg.url);
ws.onopen = () => {
  ws.send(JSON.stringify(['1', '1', 'realtime:floor', 'phx_join', { config: { postgres_changes: [
    { event: 'INSERT', schema: 'public', table: cfg.table, filter: 'owner=eq.' + cfg.owner }] }, access_token: cfg.token }]));
  setInterval(() => ws.send(JSON.stringify([null, 'hb' + ref++, 'phoenix', 'heartbeat', {}])), 20000);
};
ws.onmessage = (e) => {
  const event = performance.timeOrigin + performance.now();
  const f = JSON.parse(e.data);
  if (f[3] === 'phx_reply' && f[1] === '1') { window.__floor.joined = f[4].status; return; }
  if (f[3] !== 'postgres_changes') return;
  const label = f[4].data.record.label;
  const rec = (window.__floor.got[label] = { event, painted: NaN, stored: NaN });
  // Like the app: the write starts with the paint; a one-row transaction, default durability.
  const tx = db.transaction('m', 'readwrite');
  tx.objectStore('m').put(f[4].data.record);
  tx.oncomplete = () => { rec.stored = performance.timeOrigin + performance.now(); };
  const p = document.createElement('p');
  p.textContent = label;
  document.body.append(p);
  requestAnimationFrame(() => setTimeout(() => { rec.painted = performance.timeOrigin + performance.now(); }, 0));
};`;
}
