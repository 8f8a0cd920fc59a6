// Every joined channel, indexed two ways: by the tables its postgres_changes bindings watch (so a
// change looks only at channels that could want it) and by topic (for broadcast fan-out).
import type { Channel } from './channel.ts';

export class ChannelRegistry {
  /** "schema.table", "schema.*" or "*.*" -> channels with a binding on it. */
  private readonly byTable = new Map<string, Set<Channel>>();
  private readonly byTopic = new Map<string, Set<Channel>>();

  private static keysOf(ch: Channel): Set<string> {
    return new Set(ch.bindings.map((b) => `${b.schema}.${b.table ?? '*'}`));
  }

  add(ch: Channel): void {
    for (const key of ChannelRegistry.keysOf(ch)) addTo(this.byTable, key, ch);
    addTo(this.byTopic, ch.topic, ch);
  }

  remove(ch: Channel): void {
    for (const key of ChannelRegistry.keysOf(ch)) removeFrom(this.byTable, key, ch);
    removeFrom(this.byTopic, ch.topic, ch);
  }

  /** Channels that may have a binding for a change on schema.table (each at most once). */
  candidates(schema: string, table: string): Channel[] {
    const out = new Set<Channel>();
    for (const key of [`${schema}.${table}`, `${schema}.*`, '*.*'])
      for (const ch of this.byTable.get(key) ?? []) out.add(ch);
    return [...out];
  }

  onTopic(topic: string): ReadonlySet<Channel> {
    return this.byTopic.get(topic) ?? new Set();
  }

  all(): Channel[] {
    const out = new Set<Channel>();
    for (const set of this.byTopic.values()) for (const ch of set) out.add(ch);
    return [...out];
  }
}

function addTo(map: Map<string, Set<Channel>>, key: string, ch: Channel): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(ch);
}

function removeFrom(map: Map<string, Set<Channel>>, key: string, ch: Channel): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(ch);
  if (set.size === 0) map.delete(key);
}
