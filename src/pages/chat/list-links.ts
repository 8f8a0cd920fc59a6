// What a bubble needs from its list without taking it as a prop (a prop would re-render every
// memoised bubble on each list change): the quoted message of a reply, the jump to it, the
// actions menu. Provided by MessageList; only the quotes and the actions buttons read it.
import { createContext, useContext } from 'react';
import type { LocalMessage } from '../../../sync/model/local-types.ts';

export interface ListLinks {
  /** A loaded message by its server id (payload.reply_to holds one). */
  byServerId: (id: string) => LocalMessage | undefined;
  /** Scrolls the quoted message into view and highlights it. */
  jumpTo: (id: string) => void;
  /** Opens the actions menu of this message under the button. */
  openMenu: (key: string, button: HTMLElement) => void;
  /** Who the other side is, for a quote of their message. */
  peerName: string;
}

export const ListLinksContext = createContext<ListLinks | null>(null);

export const useListLinks = (): ListLinks | null => useContext(ListLinksContext);

/** The quoted message's id of a reply (payload.reply_to), or null. */
export function replyToOf(payload: LocalMessage['payload']): string | null {
  const id = payload && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>)['reply_to'] : undefined;
  return typeof id === 'string' && id !== '' ? id : null;
}
