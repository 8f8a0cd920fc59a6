// Loads the signed-in chunk (signed-in.tsx) once per page. The entry calls loadSignedIn() at start
// when a session is stored, so the chunk (and, through Vite's preload helper, every chunk it imports)
// downloads alongside supabase-js instead of after the session check: no waterfall on /app/chats.
// Pieces of that chunk are rendered through `fromSignedIn`: before the chunk is there, a lazy
// component that suspends; afterwards the real component directly, so the list and the archive,
// whose layout loaded them already, never flash a placeholder.
import { createElement, lazy, type ComponentType } from 'react';
import type * as SignedInModuleNs from './signed-in.tsx';

type SignedInModule = typeof SignedInModuleNs;

let loaded: SignedInModule | null = null;
let loading: Promise<SignedInModule> | null = null;

export function loadSignedIn(): Promise<SignedInModule> {
  if (!loading) {
    loading = import('./signed-in.tsx').then((m) => (loaded = m));
    loading.catch(() => {
      loading = null; // a failed fetch is tried again on the next render
    });
  }
  return loading;
}

export function fromSignedIn(pick: (m: SignedInModule) => ComponentType): ComponentType {
  const Lazy = lazy(() => loadSignedIn().then((m) => ({ default: pick(m) })));
  return function SignedInPiece() {
    return createElement(loaded ? pick(loaded) : Lazy);
  };
}

export const SignedInArea = fromSignedIn((m) => m.SignedInArea);
export const ChatsArea = fromSignedIn((m) => m.ChatsArea);
export const ChatsIndex = fromSignedIn((m) => m.ChatsIndex);
export const ArchivedPage = fromSignedIn((m) => m.ArchivedPage);
