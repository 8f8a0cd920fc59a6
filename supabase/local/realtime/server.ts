// Placeholder replaced by the Phoenix-protocol realtime service.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RealtimeDeps } from './deps.ts';

export interface RealtimeServer {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
}

export async function createRealtimeServer(_deps: RealtimeDeps): Promise<RealtimeServer> {
  return {
    handleUpgrade: (_req, socket) => socket.destroy(),
    close: async () => {},
  };
}
