// The signed-in area's own chunk: the layout with the account state and the sync engine (Dexie,
// XState, supabase-js), and the two screens the layout opens on, the chat list and the archive.
// Only signed-in-loader.tsx imports this module (dynamically); the entry never does.
export { SignedInArea } from './SignedInArea.tsx';
export { ChatsPage } from '../pages/chats/ChatsPage.tsx';
export { ArchivedPage } from '../pages/chats/ArchivedPage.tsx';
