// The desktop around the browser, for the push journeys: a private D-Bus session bus and a stand-in
// notification server on it (push-desktop-notifications.py). Chromium started with that bus in
// DBUS_SESSION_BUS_ADDRESS shows its web notifications there (chromium/chromium
// chrome/browser/notifications/notification_platform_bridge_linux.cc), so the test sees each
// notification the operating system would show, and clicks one as a person would: the server
// emits ActionInvoked(id, 'default'), which Chromium turns into a real, trusted `notificationclick`
// in the service worker (with the user activation clients.openWindow needs). Needs dbus-daemon and
// the system python with python3-dbus and python3-gi (Debian packages).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export interface ShownNotification {
  /** The server's id (Chromium reuses it when a notification with the same tag replaces one). */
  id: number;
  replaces: number;
  summary: string;
  body: string;
  actions: string[];
  /** The D-Bus unique name of the browser process that showed it (one per browser, i.e. per device). */
  sender: string;
}

export interface Desktop {
  /** Put this in the browser's environment. */
  busAddress: string;
  /** Every Notify call so far, in order (a replacement is a new entry with `replaces` set). */
  shown: ShownNotification[];
  /** Ids the browser closed (notification.close(), or replaced by tag). */
  closed: number[];
  click(id: number): void;
  stop(): Promise<void>;
}

const DAEMON = resolve(import.meta.dirname, 'push-desktop-notifications.py');

function firstLine(child: ChildProcess, what: string, timeoutMs = 10_000): Promise<string> {
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${what}: no answer in ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', (code) => fail(new Error(`${what} exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      ok(line.trim());
    });
  });
}

export async function startDesktop(): Promise<Desktop> {
  const dir = await mkdtemp(join(tmpdir(), 'poradna-bus-'));
  // The distribution's session-bus configuration on a private socket (stderr kept for errors: it
  // warns that it cannot raise its fd limit, which is harmless).
  const bus = spawn('dbus-daemon', ['--config-file=/usr/share/dbus-1/session.conf', '--nofork', '--print-address=1', `--address=unix:path=${join(dir, 'bus')}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const busErrors: string[] = [];
  bus.stderr.on('data', (d: Buffer) => busErrors.push(d.toString()));
  const busAddress = await firstLine(bus, 'dbus-daemon').catch(async (err: unknown) => {
    bus.kill();
    await rm(dir, { recursive: true, force: true });
    throw new Error(`${String(err)}: ${busErrors.join('')}`);
  });
  const daemon = spawn('/usr/bin/python3', [DAEMON], { env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: busAddress }, stdio: ['pipe', 'pipe', 'inherit'] });
  const shown: ShownNotification[] = [];
  const closed: number[] = [];
  const ready = new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('notification server: not ready in 10 s')), 10_000);
    daemon.once('exit', (code) => fail(new Error(`notification server exited with ${code}`)));
    createInterface({ input: daemon.stdout }).on('line', (line) => {
      const e = JSON.parse(line) as { event: string } & ShownNotification;
      if (e.event === 'ready') {
        clearTimeout(timer);
        ok();
      } else if (e.event === 'notify') shown.push({ id: e.id, replaces: e.replaces, summary: e.summary, body: e.body, actions: e.actions, sender: e.sender });
      else if (e.event === 'close') closed.push(e.id);
    });
  });
  await ready.catch(async (err: unknown) => {
    // Never leave a bus or a server behind a failed start.
    daemon.kill();
    bus.kill();
    await rm(dir, { recursive: true, force: true });
    throw err;
  });
  return {
    busAddress,
    shown,
    closed,
    click: (id) => void daemon.stdin.write(`click ${id}\n`),
    async stop() {
      daemon.stdin.end();
      daemon.kill();
      bus.kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
