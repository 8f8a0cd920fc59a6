// What a channel's token may do on its topic, decided at join and at every access_token update.
// Private channels (config.private) follow hosted Realtime exactly: realtime.messages' RLS policies run
// as the subscriber (RlsChecker.privateRights, after supabase/realtime lib/realtime/tenants/
// authorization.ex); the join needs broadcast or presence read, else it is refused with "You do not have
// permissions to read from this Channel topic" (lib/realtime_web/channels/realtime_channel.ex,
// maybe_assign_policies), and only a channel with broadcast read is handed broadcasts (the fastlane's
// broadcast read gate there). Public channels: hosted admits anyone; here sending and receiving
// broadcasts are gated by public.realtime_topic_allowed (stricter, supabase/local/README.md).
import type { RlsChecker } from './rls-check.ts';

export interface ChannelRights {
  /** Broadcasts of the topic (from clients and from the database) reach this channel. */
  receive: boolean;
  /** This channel may push broadcasts. */
  send: boolean;
}

/** null: a private channel the token may not read (the join is refused, or the channel shut down). */
export async function channelRights(
  rls: RlsChecker,
  topic: string,
  claims: Record<string, unknown>,
  channel: { private: boolean; presenceEnabled: boolean },
): Promise<ChannelRights | null> {
  if (channel.private) {
    const r = await rls.privateRights(topic, claims, channel.presenceEnabled);
    if (!r.broadcastRead && !r.presenceRead) return null;
    return { receive: r.broadcastRead, send: r.broadcastWrite };
  }
  const rule = (await rls.topicAllowed(topic, claims)) ?? true;
  return { receive: rule, send: rule };
}
