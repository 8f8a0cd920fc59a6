// Every user-visible string of the app. Texts quoted by user-area.md / admin-area.md are copied
// exactly (including 'e‑mail' with U+2011 and the mix of '...' and '…'); strings the spec does not
// give (headings, labels, aria labels) are marked "ours" and may be reworded freely.
// The sections the first paint of /app/chats needs live in sk-shell.ts and are included here whole.
import { skShell } from './sk-shell.ts';

export const sk = {
  ...skShell,
  demo: {
    title: 'Scroll demo', // ours
    item: (n: number) => `Položka ${n}`, // ours
  },
  auth: {
    ...skShell.auth,
    email: 'E-mail', // ours
    password: 'Heslo', // ours
    showPassword: 'Zobraziť heslo', // ours
    hidePassword: 'Skryť heslo', // ours
    loginTitle: 'Prihlásenie', // ours
    signIn: 'Prihlásiť',
    magicLink: 'Prihlásiť e‑mail odkazom',
    forgotLink: 'Zabudnuté heslo?', // ours
    registerLink: 'Nemáš účet? Zaregistruj sa', // ours
    registerTitle: 'Registrácia', // ours
    registerHint: 'Pošleme ti odkaz, cez ktorý si nastavíš heslo.', // ours
    createAccount: 'Vytvoriť účet',
    haveAccount: 'Už máš účet? Prihlás sa',
    resend: 'Neprišiel e‑mail? Poslať znova',
    mailSent: 'E-mail bol odoslaný',
    forgotTitle: 'Zabudnuté heslo', // ours
    forgotHint: 'Zadaj svoj e-mail a pošleme ti odkaz na nastavenie nového hesla.', // ours
    sendLink: 'Poslať odkaz',
    backToLogin: 'Späť na prihlásenie',
    verifying: 'Overujeme odkaz...',
    resetTitle: 'Nastav si nové heslo', // ours
    newPassword: 'Nové heslo', // ours
    confirmPassword: 'Potvrď heslo', // ours
    savePassword: 'Zmeniť heslo', // ours
    expiredTitle: 'Odkaz expiroval',
    expiredHint: 'Odkaz na nastavenie hesla už nie je platný. Vyžiadaj si nový.', // ours
    sendAgain: 'Poslať odkaz znova',
    signingIn: 'Prihlasujeme ťa...',
    missingEmailTitle: 'Chýba e-mail',
    missingEmail: 'Najprv zadaj svoj e-mail.',
    signedIn: 'Úspešne prihlásený!',
    passwordChanged: 'Heslo bolo zmenené',
    resetMailSent: 'Email na reset hesla bol odoslaný',
    signedOut: 'Odhlásený',
    // ours: sign-in with the mailed 6-digit code (issue 37 user item 9)
    enterCode: 'Mám kód z e-mailu',
    codeLabel: 'Kód z e-mailu',
    codeHint: 'Šesť číslic z e-mailu na prihlásenie alebo z uvítacieho e-mailu.',
    codeFormat: 'Kód má šesť číslic.',
    signInWithCode: 'Prihlásiť kódom',
  },
  password: {
    weakTitle: 'Slabé heslo',
    tooShort: 'Heslo musí mať aspoň 8 znakov.',
    needsDigit: 'Heslo musí obsahovať aspoň jednu číslicu.',
    mismatchTitle: 'Heslá sa nezhodujú',
    mismatch: 'Zadané heslá sa nezhodujú. Skús to znova.',
  },
  errors: {
    ...skShell.errors,
    invalidCredentials: 'Nesprávny e-mail alebo heslo.',
    signInFailed: 'Nepodarilo sa prihlásiť. Skús to znova.',
    generic: 'Niečo sa pokazilo. Skús to znova.',
    magicLinkFailed: 'Nepodarilo sa odoslať magic link. Skús to znova.',
    forgotFailed: 'Nepodarilo sa odoslať email. Skús to znova.',
    settingsResetFailed: 'Nepodarilo sa odoslať email na reset hesla. Skús to znova.',
    signOutFailed: 'Nepodarilo sa odhlásiť. Skús to znova.',
    passwordChangeFailed: 'Nepodarilo sa zmeniť heslo. Skús to znova.',
    codeInvalid: 'Kód je nesprávny alebo už neplatí. Vyžiadaj si nový e-mail.', // ours (issue 37)
    codeTooMany: 'Príliš veľa pokusov. Skús to o chvíľu.', // ours (issue 37)
    samePassword: 'Nové heslo sa musí líšiť od doterajšieho.', // ours: GoTrue's same_password (issue 37)
    invalidLink: 'Neplatný alebo expirovaný odkaz. Skús to znova.',
    missingParams: 'Chýbajú autentifikačné parametre.',
  },
  settings: {
    title: 'Nastavenia – Bezpečnosť',
    impersonationTitle: 'Impersonácia', // ours
    impersonationHint: (accountName: string) => `Práve spravuješ účet ${accountName}.`, // ours
    accountTitle: 'Účet', // ours
    email: 'E-mail', // ours
    lastSignIn: 'Posledné prihlásenie', // ours
    unavailable: 'Nedostupné',
    securityTitle: 'Bezpečnosť', // ours
    resetPassword: 'Resetovať heslo',
    sessionTitle: 'Relácia', // ours
    signOut: 'Odhlásiť sa',
    // ours: sign-out deletes this device's database, so unsent messages would be lost (see unsent-count.ts)
    unsentWarning: (n: number) =>
      n === 1
        ? '1 správa ešte nebola odoslaná. Po odhlásení sa z tohto zariadenia stratí.'
        : n < 5
          ? `${n} správy ešte neboli odoslané. Po odhlásení sa z tohto zariadenia stratia.`
          : `${n} správ ešte nebolo odoslaných. Po odhlásení sa z tohto zariadenia stratia.`,
    // ours; the verb agrees with the count ('1 správa … kým sa odošle', issue 21 item 13)
    unsentHint: (n: number) => (n === 1 ? 'Pripoj sa k internetu a počkaj, kým sa odošle.' : 'Pripoj sa k internetu a počkaj, kým sa odošlú.'),
    signOutAnyway: 'Odhlásiť sa aj tak', // ours
    staySignedIn: 'Zostať prihlásený', // ours
  },
  chat: {
    noConversation: 'No conversation selected',
    loading: 'Načítavam správy...', // ours
    sendWhenOpen: 'Správa sa odošle, keď sa konverzácia načíta.', // ours: Enter pressed while the chat is still opening
    sendAfterAnswer: 'Správa sa odošle po odpovedi špecialistu.', // ours: that Enter, when the chat opened waiting for an answer
    // ours (issue 37): the spec fixes no text for a missing chat; 'Conversation not found' is only a
    // thrown message in the spec, and a member is told in Slovak, as soon as the device knows.
    notFound: 'Táto konverzácia neexistuje alebo k nej nemáte prístup.',
    notFoundTitle: 'Konverzácia sa nenašla', // ours: the chat header then
    notDownloaded: 'Táto konverzácia nie je stiahnutá v tomto zariadení. Zobrazí sa po pripojení k internetu.',
    online: 'online',
    busy: 'zaneprázdnený',
    locked: 'uzamknuté',
    placeholder: 'Napísať správu…',
    waiting: 'Čaká sa na odpoveď…',
    completed: 'Konverzácia je ukončená',
    messageLabel: 'Správa', // ours: composer label
    send: 'Odoslať', // ours
    attach: 'Priložiť súbor', // ours (issue 38: the picker; the 25 MB limit is said in the tray)
    messagesLabel: 'Správy', // ours
    historyLabel: 'História správ', // ours: the message scroller, in the tab order (issue 37)
    newMessages: 'Nové správy', // ours: live region label
    typing: 'Špecialista píše…', // ours
    sending: 'Odosiela sa…', // ours
    sendFailed: 'Failed to send message',
    retrySend: 'Skúsiť znova', // ours (retry control of a failed message)
    tooLong: 'Správa je príliš dlhá (najviac 8\u00a0000 znakov), neodoslala sa.', // ours: the server's 'Message is too long: at most 8000 characters' (issue 36)
    sendRefused: 'Server správu neprijal, neodoslala sa.', // ours: any other raw server error (issue 37)
    storageFull: 'V zariadení došlo miesto. Správa zostala v poli na písanie.', // ours: toast when IndexedDB is over quota
    fallbackTitle: 'Problém s pripojením',
    fallbackHint: 'Nepodarilo sa spojiť so serverom, ak problémy pretrvávajú kontaktujte prevádzkovateľa služby',
    loadFailed: 'Nepodarilo sa načítať správy',
    loadFailedAfterReconnect: 'Nepodarilo sa načítať správy po obnovení pripojenia',
    retryHint: 'Skúste to prosím znova',
    you: 'Vy', // ours
    openFile: (name: string, size: string) => `Otvoriť ${name} ${size}`, // ours: visible name and size, in order
    image: (n: number) => `Obrázok ${n}`, // ours
  },
  // ours (issue 39, streamed AI replies): the controls under an answer being written.
  aiStream: {
    stop: 'Zastaviť',
    stopped: 'Odpoveď bola zastavená.',
    interrupted: 'Odpoveď sa prerušila.',
    stopFailed: 'Odpoveď sa nepodarilo zastaviť. Skúste to znova.',
    retryFailed: 'Odpoveď sa nepodarilo obnoviť. Skúste to znova.',
  },
  // ours (issue 40, second part): message actions, replies, day separators, jump to the newest, drafts.
  chatActions: {
    ...skShell.chatActions,
    today: 'Dnes',
    yesterday: 'Včera',
    menuLabel: 'Akcie správy',
    openMenu: 'Akcie správy',
    copy: 'Kopírovať',
    reply: 'Odpovedať',
    copied: 'Správa je skopírovaná',
    copyFailed: 'Správu sa nepodarilo skopírovať',
    replyingTo: 'Odpoveď na správu',
    removeReply: 'Zrušiť odpoveď',
    quoteOf: (who: string) => `Citácia: ${who}`,
    quoteMissing: 'Pôvodná správa nie je v tomto zariadení',
    jumpToNewest: 'Prejsť na najnovšie správy',
    newCount: (n: number) => (n === 1 ? '1 nová správa' : n >= 2 && n <= 4 ? `${n} nové správy` : `${n} nových správ`),
  },
  card: {
    aiBadge: 'AI ŠPECIALISTA',
    credits: (n: number) => `${n} kreditov`,
    activate: 'Aktivovať špecialistu',
    activating: 'Aktivujem...',
    existingTitle: 'Pokračujeme v existujúcej konverzácii',
    existing: 'Našli sme vašu predchádzajúcu konverzáciu s týmto špecialistom',
    startFailed: 'Nepodarilo sa spustiť konverzáciu. Skúste to znova.',
  },
  lightbox: {
    label: 'Galéria obrázkov', // ours
    close: 'Zavrieť', // ours
    previous: 'Predchádzajúci obrázok', // ours
    next: 'Ďalší obrázok', // ours
    zoomIn: 'Priblížiť', // ours
    zoomOut: 'Oddialiť', // ours
    position: (i: number, n: number) => `${i} / ${n}`, // ours
  },
  specialists: {
    title: 'Špecialisti',
    subtitle: 'Vyberte si AI alebo ľudského experta a začnite chat.',
    loadFailed: (error: string) => `Chyba pri načítaní špecialistov: ${error}`,
    fetchFailed: 'Failed to fetch specialists',
    empty: 'Žiadni špecialisti nie sú k dispozícii pre váš účet.',
    chat: 'Chatovať',
    request: 'Požiadať o špecialistu',
    busy: 'Spúšťa sa konverzácia...',
    requestSent: (name: string) => `Žiadosť odoslaná ${name}`,
    noAccount: 'Nepodarilo sa identifikovať účet',
    requestFailed: 'Nepodarilo sa odoslať žiadosť. Skúste to znova.',
    skills: 'Zručnosti', // ours: label of the skill list
    requestQueued: (name: string) => `Žiadosť pre ${name} sa odošle po pripojení`, // ours: item 12, the request waits offline
    requestQueuedSignIn: (name: string) => `Žiadosť pre ${name} sa odošle po prihlásení`, // ours: item 12, it waits for sign-in
    requestSlow: (name: string) => `Žiadosť pre ${name} sa ešte odosiela…`, // ours: item 12, online but the server is slow
  },
  placeholder: {
    chats: 'Tu bude zoznam konverzácií: vyhľadávanie, filtre, archivované konverzácie a nové správy.', // ours
    chat: 'Tu bude konverzácia so špecialistom: správy, písanie a odosielanie.', // ours
    archived: 'Tu budú archivované konverzácie, ktoré sa dajú obnoviť.', // ours
    specialists: 'Tu bude zoznam špecialistov, s ktorými môžeš začať chat.', // ours
    admin: 'Tu budú nástroje pre správcov.', // ours
  },
  files: {
    unknownSize: 'Neznáma veľkosť',
  },
  // issue 40: search inside messages (src/search/)
  search: {
    messagesHeading: 'Správy',
    resultsLabel: 'Nájdené správy', // ours: the results list's name
    found: (n: number) => (n === 0 ? 'Žiadna správa nezodpovedá hľadaniu' : n === 1 ? 'Nájdená 1 správa' : n <= 4 ? `Nájdené ${n} správy` : `Nájdených ${n} správ`), // ours: announced
    shownOf: (shown: number, total: number) => `Zobrazených ${shown} najnovších z ${total}`, // ours
    searching: 'Hľadám v správach…', // ours
    failed: 'Vyhľadávanie v správach sa nepodarilo. Skúste to znova.', // ours
    you: 'Vy', // ours: sender of an own message in a hit
    foundMessage: 'Nájdená správa', // ours: label of the highlighted message in the chat
  },
  // ours, issue 38 (attachments, the composer and own bubbles; branch h-attach-ui)
  attachments: {
    camera: 'Odfotiť', // the camera button, phones only
    trayLabel: 'Prílohy správy',
    limit: 'Najviac 25 MB na súbor: obrázky, PDF, dokumenty Office, text, ZIP.',
    remove: (name: string) => `Odstrániť prílohu ${name}`,
    caption: (name: string) => `Popis k ${name} (nepovinný)`,
    captionPlaceholder: 'Popis (nepovinný)',
    preparing: 'Pripravuje sa…',
    preview: (name: string) => `Zobraziť ${name}`,
    tooLarge: (name: string) => `Súbor ${name} má viac ako 25 MB, nepriložil sa.`,
    badType: (name: string) => `Súbor ${name} sa nedá poslať: povolené sú obrázky, PDF, dokumenty Office, text a ZIP.`,
    empty: (name: string) => `Súbor ${name} je prázdny, nepriložil sa.`,
    unreadable: (name: string) => `Obrázok ${name} sa v tomto zariadení nedá spracovať, nepriložil sa.`,
    tooMany: (max: number) => `Naraz sa dá poslať najviac ${max} súborov.`,
    dropHint: 'Pustite súbory sem a priložia sa k správe',
    notSent: 'Správa s prílohami sa neuložila, zostáva v poli na písanie.',
    unavailable: 'Posielanie príloh v tejto verzii aplikácie ešte nefunguje. Prílohy zostávajú pripravené.',
    uploading: (percent: number) => `Nahráva sa ${percent} %`,
    uploadLabel: (name: string) => `Nahrávanie ${name}`,
    uploadFailed: 'Prílohu sa nepodarilo nahrať.',
    retry: 'Skúsiť znova',
    cancel: 'Zrušiť odoslanie',
    // ours, issue 38 (R12.13: the bubble before the photo is prepared; branch h-photo)
    preparingPhoto: 'Fotka sa pripravuje na odoslanie…',
  },
  chatSearch: {
    open: 'Hľadať v konverzácii',
    label: 'Hľadať v tejto konverzácii',
    placeholder: 'Hľadať v konverzácii…',
    previous: 'Predchádzajúci výskyt',
    next: 'Ďalší výskyt',
    close: 'Zavrieť hľadanie',
    position: (at: number, total: number) => `${at} z ${total}`,
    none: 'Nič sa nenašlo',
    failed: 'Vyhľadávanie sa nepodarilo.',
  },
  theme: {
    title: 'Vzhľad',
    legend: 'Farebný motív',
    hint: 'Platí pre toto zariadenie.',
    choice: { system: 'Systém', light: 'Svetlý', dark: 'Tmavý' },
    systemHint: 'podľa nastavenia zariadenia',
  },
  // ours (issue 35, R17.5): a chat whose older history has not arrived yet (a backlog on a slow link)
  // says so at its top instead of looking complete.
  olderHistory: {
    arriving: 'Staršie správy sa ešte sťahujú…',
    notDownloaded: 'Staršie správy ešte nie sú stiahnuté. Načítajú sa po pripojení k internetu.',
  },
  // ours, issue 37 (admin item 1: support's messages while impersonating; user item 12: the time a
  // message was written) and issue 39 leftovers; branch h-walk
  walk: {
    supportByline: 'Napísala podpora Poradne',
    supportComposeNote: 'Píšete ako podpora: zákazník uvidí vašu správu označenú „Napísala podpora Poradne“ na všetkých svojich zariadeniach.',
    writtenDelivered: (written: string, delivered: string) => `Napísané ${written}, doručené ${delivered}`,
  },
} as const;
