// The texts the signed-in shell and the conversation list paint with (bench row 8a): the layout,
// navigation, the list and its rows, toasts and the few errors of the providers around them. Kept
// apart from sk.ts so the first paint of /app/chats does not carry the whole catalogue (the chat, its
// attachments and search, settings, the auth pages); sk.ts includes every section here, so a screen
// loaded later reads one catalogue. tests/unit/first-paint-graph.test.ts keeps sk.ts out of the
// first paint's imports. Texts quoted by user-area.md are copied exactly, as in sk.ts.

export const skShell = {
  app: {
    name: 'Poradňa',
    planLoading: 'Loading...',
    back: 'Späť', // ours
    loading: 'Načítavam…', // ours: screen-reader label of skeletons
    mainNav: 'Hlavná navigácia', // ours
  },
  nav: {
    chats: 'Cháty',
    specialists: 'Špecialisti',
    settings: 'Nastavenia',
    admin: 'Admin',
  },
  titles: {
    archived: 'Archivované',
    admin: 'Admin',
    chat: 'Chat',
  },
  impersonation: {
    banner: (accountName: string) => `Impersonating: ${accountName}`,
    stop: 'Stop impersonating',
    cancel: 'Zrušiť impersonáciu',
    cancelled: 'Impersonácia zrušená',
  },
  notFound: {
    code: '404',
    text: 'Oops! Page not found',
    home: 'Return to Home',
  },
  toast: {
    errorTitle: 'Chyba',
    successTitle: 'Úspech',
    close: 'Zavrieť', // ours
    region: 'Oznámenia', // ours
  },
  auth: {
    sessionExpired: 'Session vypršala',
  },
  // ours: a part of the app that could not be loaded or shown (LoadErrorBoundary), instead of a blank page
  loadError: {
    title: 'Túto časť aplikácie sa nepodarilo zobraziť',
    offline: 'Ste offline a táto časť ešte nie je uložená v zariadení. Pripojte sa k internetu a skúste znova.',
    online: 'Skúste stránku načítať znova. Vaše koncepty a neodoslané správy zostávajú uložené v zariadení.',
    retry: 'Skúsiť znova',
  },
  errors: {
    accountFetch: 'Failed to fetch account',
    noAuthProvider: 'useAuth must be used within an AuthProvider',
  },
  chats: {
    title: 'Konverzácie', // ours: heading of /app/chats (visually hidden)
    searchPlaceholder: 'Hľadať konverzáciu…',
    searchLabel: 'Hľadať konverzáciu', // ours
    filtersLabel: 'Filter konverzácií', // ours
    filters: { all: 'Všetky', unread: 'Neprečítané', active: 'Aktívne', completed: 'Ukončené' },
    archivedRow: 'Archivované konverzácie',
    archivedCount: (n: number) => `${n} archivovaných`, // ours: screen-reader label
    loading: 'Načítavam konverzácie...',
    offlineTitle: 'Problém s internetom',
    offlineHint: 'Skontrolujte svoje pripojenie',
    loadFailed: 'Nepodarilo sa načítať konverzácie',
    // ours (issue 35): a backlog on its way, counts already formatted (formatCount)
    syncProgress: (done: string, total: string) => `Sťahujem správy… ${done} z ${total}`,
    retryHint: 'Skúste to prosím znova',
    retry: 'Skúsiť znova',
    empty: 'No conversations found',
    emptySearch: 'No conversations match your search',
    emptyFilter: 'V tomto filtri nie sú žiadne konverzácie', // ours: a filter chip alone found nothing (issue 21 item 13)
    archivedEmpty: 'Žiadne archivované konverzácie',
    archivedEmptyHint: 'Konverzácie sa zobrazia tu po archivácii',
    archivedEmptySearch: 'No archived conversations match your search',
    listLabel: 'Zoznam konverzácií', // ours
    archive: 'Archivovať',
    restore: 'Obnoviť',
    unknownSpecialist: 'Neznámy špecialista',
    noMessages: 'No messages yet',
    // ours (R2.10, R16.5): a row whose message or draft has files and no text names them
    photo: 'Fotka',
    file: 'Súbor',
    photos: (n: number) => (n <= 4 ? `${n} fotky` : `${n} fotiek`),
    attachments: (n: number) => (n <= 4 ? `${n} prílohy` : `${n} príloh`),
  },
  chatActions: {
    draft: 'Koncept:',
  },
  status: {
    active: 'Aktívne',
    completed: 'Ukončené',
  },
  badges: {
    unread: (n: number) => `${n} neprečítaných`, // ours: screen-reader label
  },
  time: {
    now: 'Teraz',
    hours: (n: number) => `${n}h`,
    days: (n: number) => `${n}d`,
  },
  // ours (issue 39, h-handoff): who answers the conversation (sync/SPEC.md R14)
  owner: {
    ai: 'Odpovedá AI',
    waiting: (time: string) => `Čaká na špecialistu od ${time}`,
    human: (name: string) => `Píše ${name}`,
    humanUnnamed: 'Odpovedá špecialista',
    request: 'Chcem hovoriť s človekom',
    requesting: 'Privolávam špecialistu…',
    requested:
      'Požiadali ste o špecialistu. AI už v tomto chate neodpovedá; špecialista sa vám ozve tu. Môžete mu písať už teraz, správy si prečíta.',
    offline: 'Bez pripojenia sa špecialista nedá privolať. Skúste to znova, keď budete online.',
    failed: 'Špecialistu sa nepodarilo privolať. Skúste to prosím znova.',
    waitingNote: 'AI v tomto chate už neodpovedá. Špecialista sa vám ozve tu; správy, ktoré napíšete, si prečíta.',
  },
  // ours, issue 40 (desktop two-pane and dark mode; branch h-ui)
  layout: {
    noChatOpen: 'Vyberte konverzáciu',
    noChatOpenHint: 'Otvorí sa tu, vedľa zoznamu. Zoznam a konverzácia sa prepínajú klávesom Tab.',
    chatPane: 'Otvorená konverzácia',
  },
} as const;
