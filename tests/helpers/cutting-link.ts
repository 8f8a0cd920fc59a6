// A TCP relay that loses the link at chosen points, counting the request bytes that reached the server
// (storage and sync tests, and bench row 14c; no test framework here, so the bench can use it).
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

/**
 * A relay to `target`. With one number, every connection is dropped once `cutAfter` request bytes
 * passed through it, until heal() (a link that stays down). With a list, the connection carrying the
 * bytes past each point is dropped there and later connections go on, until the next point (a link
 * lost at those moments). forwarded() counts the request bytes that reached the server; cuts() the drops.
 */
export async function cuttingLink(target: URL, cutAfter: number | readonly number[]) {
  const points = typeof cutAfter === 'number' ? [cutAfter] : [...cutAfter];
  const staysDown = typeof cutAfter === 'number';
  let next = 0;
  let forwarded = 0;
  let cuts = 0;
  let healed = false;
  const sockets = new Set<Socket>();
  /** Per connection: the request lines seen at the start of a chunk and the bytes forwarded (for failure messages). */
  const log: { requests: string[]; answers: number[]; bytes: number; cut: boolean; healed: boolean }[] = [];
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    const conn = { requests: [] as string[], answers: [] as number[], bytes: 0, cut: false, healed };
    log.push(conn);
    upstream.on('data', (d: Buffer) => {
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(d.subarray(0, 16).toString('latin1'));
      if (status) conn.answers.push(Number(status[1]));
    });
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (d: Buffer) => {
      const line = /^(HEAD|GET|POST|PATCH|PUT|DELETE|OPTIONS) \S+/.exec(d.subarray(0, 200).toString('latin1'));
      if (line) conn.requests.push(line[0]);
      const room = (healed ? Infinity : (points[next] ?? Infinity)) - forwarded;
      if (d.length > room) {
        if (room > 0) upstream.write(d.subarray(0, room));
        forwarded += Math.max(room, 0);
        conn.bytes += Math.max(room, 0);
        conn.cut = true;
        cuts++;
        if (!staysDown) next++;
        upstream.end(drop);
        return;
      }
      forwarded += d.length;
      conn.bytes += d.length;
      upstream.write(d);
    });
    upstream.pipe(client);
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded: () => forwarded,
    cuts: () => cuts,
    /** What each connection carried, in order: for a failure's message. */
    describe: () =>
      log
        .map((c, i) => `#${i}${c.healed ? ' healed' : ''} ${c.bytes} B${c.cut ? ' (cut)' : ''}: ${c.requests.join(', ')} → ${c.answers.join(', ')}`)
        .join('\n'),
    /** The answers' statuses on connections opened after heal(), in order. */
    answersAfterHeal: () => log.filter((c) => c.healed).flatMap((c) => c.answers),
    heal: () => {
      healed = true;
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
