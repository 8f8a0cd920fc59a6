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
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (d: Buffer) => {
      const room = (healed ? Infinity : (points[next] ?? Infinity)) - forwarded;
      if (d.length > room) {
        if (room > 0) upstream.write(d.subarray(0, room));
        forwarded += Math.max(room, 0);
        cuts++;
        if (!staysDown) next++;
        upstream.end(drop);
        return;
      }
      forwarded += d.length;
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
    heal: () => {
      healed = true;
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
