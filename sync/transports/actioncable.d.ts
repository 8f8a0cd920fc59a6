// The part of @rails/actioncable (which ships no types) that chatwoot-cable.ts uses.
declare module '@rails/actioncable' {
  export interface Mixin {
    connected?(): void;
    disconnected?(data?: { willAttemptReconnect?: boolean }): void;
    rejected?(): void;
    received?(data: unknown): void;
  }
  export interface Subscription {
    perform(action: string, data?: Record<string, unknown>): boolean;
    unsubscribe(): void;
  }
  export interface Consumer {
    subscriptions: { create(params: Record<string, unknown>, mixin: Mixin): Subscription };
    connect(): boolean;
    disconnect(): void;
  }
  export function createConsumer(url?: string): Consumer;
  export const adapters: { WebSocket: unknown; logger: unknown };
}
