// One browser context of the chaos run: signs in through the login page, then plays its plan through
// the real UI (composer, reloads, offline) and can read its IndexedDB for the verdict.
// Invariant: a text counts as sent only when the composer accepted it (cleared, own bubble shown).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHAOS_PASSWORD, type ChaosAccount, type ChaosUser } from './accounts.ts';
import type { Step } from './plan.ts';
import type { ClientSnapshot } from './verdict.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(cond: () => Promise<boolean>, ms: number, every = 100): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if (await cond()) return true;
    } catch {
      /* page navigating: try again */
    }
    await sleep(every);
  }
  return false;
}

export interface ContextStats {
  accepted: string[];
  unconfirmed: string[];
  reloads: number;
  offlineSpells: number;
  stepErrors: number;
}

export class ChaosContext {
  readonly stats: ContextStats = { accepted: [], unconfirmed: [], reloads: 0, offlineSpells: 0, stepErrors: 0 };
  /** The first waiting outbox entry at the last snapshot (for the report of a context that never heals). */
  outboxHead: unknown = null;
  private context!: BrowserContext;
  private page!: Page;

  constructor(
    readonly index: number,
    readonly user: ChaosUser,
    readonly account: ChaosAccount,
    private readonly log: (line: string) => void,
  ) {}

  async open(browser: Browser, baseURL: string): Promise<void> {
    this.context = await browser.newContext({
      baseURL,
      viewport: { width: 360, height: 640 },
      locale: 'sk-SK',
      timezoneId: 'Europe/Bratislava',
      serviceWorkers: 'allow',
    });
    this.page = await this.context.newPage();
  }

  private composer() {
    return this.page.getByRole('textbox', { name: 'Správa' });
  }

  /**
   * Signs in through the login page. Each step's time goes to the log, and a login form that never
   * shows says what the page held instead (session 50's CI run: the first context waited 30 s for the
   * 'E-mail' field, and nothing told whether the page, its script or the form was missing).
   */
  async signIn(): Promise<void> {
    const p = this.page;
    const t0 = Date.now();
    const steps: string[] = [];
    const step = (name: string) => steps.push(`${name} ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await p.goto('/auth/login');
    step('loaded');
    const email = p.getByLabel('E-mail', { exact: true });
    if (!(await until(() => email.isVisible(), 30_000))) throw new Error(`context ${this.index}: no login form 30 s after the page loaded (${steps.join(', ')}; ${await this.describePage()})`);
    step('form');
    await email.fill(this.user.email);
    await p.getByLabel('Heslo', { exact: true }).fill(CHAOS_PASSWORD);
    await p.getByRole('button', { name: 'Prihlásiť', exact: true }).click();
    await p.waitForURL(/\/app\/chats/, { timeout: 30_000 });
    step('signed in');
    await this.openConversation(0);
    step('chat ready');
    this.log(`context ${this.index} (${this.user.email}): ${steps.join(', ')}`);
  }

  /** What the page shows and loaded, for a step that found nothing to act on. */
  private async describePage(): Promise<string> {
    try {
      return await this.page.evaluate<string>(`(() => {
        const text = (document.body?.innerText ?? '').replace(/\\s+/g, ' ').trim().slice(0, 200);
        const res = performance.getEntriesByType('resource');
        const last = res.length ? res[res.length - 1].name.replace(location.origin, '') : '-';
        const sw = navigator.serviceWorker?.controller ? 'controlled' : 'not controlled';
        return location.pathname + ' ' + document.readyState + '; ' + res.length + ' resources (last ' + last + '); ' + sw + '; text: "' + text + '"';
      })()`);
    } catch (err) {
      return `page unreadable: ${(err as Error).message.split('\n')[0]}`;
    }
  }

  /**
   * Opens a conversation and waits until it can be typed into. The composer shows at once but stays
   * disabled while the conversation is not in the local store yet (issue 21 item 7): right after
   * sign-in the first pull may still be under way, and the last context signs in just before the
   * faults start, so "visible" alone let its first send meet a disabled composer for as long as the
   * network (or the killed stack) kept that pull from landing.
   */
  private async openConversation(conv: number): Promise<void> {
    await this.page.goto(`/app/chats/${this.account.conversations[conv]}`);
    await this.composerReady('after opening');
  }

  private async composerReady(when: string): Promise<void> {
    const ready = async () => (await this.composer().isVisible()) && (await this.composer().isEnabled());
    if (!(await until(ready, 30_000))) throw new Error(`composer not ready ${when} (${await this.describe()})`);
  }

  private async send(text: string): Promise<void> {
    const composer = this.composer();
    await composer.fill(text, { timeout: 15_000 });
    await composer.press('Enter', { timeout: 5_000 });
    const own = this.page.locator('[data-testid="message"][data-own="true"]').filter({ hasText: text });
    const ok = await until(async () => (await composer.inputValue()) === '' && (await own.count()) > 0, 10_000);
    (ok ? this.stats.accepted : this.stats.unconfirmed).push(text);
  }

  /** Plays the plan; `onAccepted` is told after every accepted send (the run's kill trigger). */
  async play(steps: Step[], onAccepted: () => void, pauseMs: () => number): Promise<void> {
    let conv = 0;
    for (const step of steps) {
      try {
        switch (step.kind) {
          case 'open':
            conv = step.conv;
            await this.openConversation(conv);
            break;
          case 'offline':
            this.stats.offlineSpells++;
            await this.context.setOffline(true);
            break;
          case 'online':
            await this.context.setOffline(false);
            break;
          case 'reload':
            this.stats.reloads++;
            await this.page.reload({ timeout: 30_000 });
            await this.composerReady('after reload');
            break;
          case 'send': {
            const before = this.stats.accepted.length;
            await this.send(`chaos ${this.index} ${step.index}`);
            if (this.stats.accepted.length > before) onAccepted();
            await sleep(pauseMs());
            break;
          }
        }
      } catch (err) {
        this.stats.stepErrors++;
        this.log(`ctx ${this.index}: ${step.kind} failed: ${(err as Error).message.split('\n')[0]} (${await this.describe()})`);
        if (step.kind === 'send') this.stats.unconfirmed.push(`chaos ${this.index} ${step.index}`);
        // Get back to a usable page for the next step.
        await this.openConversation(conv).catch(() => undefined);
      }
    }
  }

  /** What the page showed when a step failed: where it was, the composer's state, the status lines. */
  private async describe(): Promise<string> {
    try {
      return await this.page.evaluate<string>(`(() => {
        const c = document.querySelector('textarea');
        const composer = c ? (c.disabled ? 'disabled' : 'enabled') + ' "' + c.placeholder + '"' : 'none';
        const status = [...document.querySelectorAll('[role=status],[role=alert]')].map((e) => e.textContent.trim()).filter(Boolean).join(' | ');
        return location.pathname + '; composer ' + composer + '; status: ' + (status || '-');
      })()`);
    } catch (err) {
      return `page unreadable: ${(err as Error).message.split('\n')[0]}`;
    }
  }

  async setOffline(offline: boolean): Promise<void> {
    await this.context.setOffline(offline);
  }

  async snapshot(): Promise<ClientSnapshot> {
    const name = `poradna-sync-${this.user.id}`;
    // A string, not a function: tsx would wrap a function with helpers (__name) the page lacks.
    const data = await this.page.evaluate<{ messages: unknown[]; conversations: unknown[]; outbox: number; head: unknown } | null>(`(async (dbName) => {
      const dbs = await indexedDB.databases();
      if (!dbs.some((d) => d.name === dbName)) return null;
      const db = await new Promise((res, rej) => {
        const r = indexedDB.open(dbName);
        r.onsuccess = () => res(r.result);
        r.onerror = () => rej(r.error);
      });
      const all = (store) => new Promise((res, rej) => {
        const r = db.transaction(store, 'readonly').objectStore(store).getAll();
        r.onsuccess = () => res(r.result);
        r.onerror = () => rej(r.error);
      });
      const box = await all('outbox');
      // No due time is stored (R9.6: the retry schedule lives in the engine's memory); what is stored
      // is the attempts so far, the last error, and a live claim (R9.10: which engine pushes it, until when).
      const e = box[0];
      const head = e ? { key: e.key, kind: e.op && e.op.kind, attempts: e.attempts, lastError: e.lastError, claim: e.claim ? { by: e.claim.by, endsInMs: e.claim.until - Date.now() } : null } : null;
      const out = { messages: await all('messages'), conversations: await all('conversations'), outbox: box.length, head };
      db.close();
      return out;
    })(${JSON.stringify(name)})`);
    if (!data) return { context: this.index, accountId: this.account.id, outbox: -1, messages: [], conversations: [] };
    type M = { serverId: string | null; conversationId: string; accountId: string | null; text: string; state: string };
    type C = { id: string; accountId: string | null };
    this.outboxHead = data.head;
    return {
      context: this.index,
      accountId: this.account.id,
      outbox: data.outbox,
      messages: (data.messages as M[]).map((m) => ({
        serverId: m.serverId,
        conversationId: m.conversationId,
        accountId: m.accountId,
        text: m.text,
        state: m.state,
      })),
      conversations: (data.conversations as C[]).map((c) => ({ id: c.id, accountId: c.accountId })),
    };
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
  }
}
