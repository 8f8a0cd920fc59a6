// The signed-in area's own chunk: the layout with the account state and the sync engine (Dexie,
// XState, supabase-js), and the two screens the layout opens on, the chat list and the archive, with
// the chats' area around the list and the open chat (two panes on a desktop, issue 40).
// Only signed-in-loader.tsx imports this module (dynamically); the entry never does.
export { SignedInArea } from './SignedInArea.tsx';
export { ArchivedPage } from '../pages/chats/ArchivedPage.tsx';
export { ChatsArea, ChatsIndex } from '../pages/chats/ChatsArea.tsx';
