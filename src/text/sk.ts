// Every user-visible string of the app. Texts quoted by user-area.md / admin-area.md are copied
// exactly (including 'e‑mail' with U+2011 and the mix of '...' and '…'); strings the spec does not
// give (headings, labels, aria labels) are marked "ours" and may be reworded freely.

export const sk = {
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
  demo: {
    title: 'Scroll demo', // ours
    item: (n: number) => `Položka ${n}`, // ours
  },
  toast: {
    errorTitle: 'Chyba',
    successTitle: 'Úspech',
    close: 'Zavrieť', // ours
    region: 'Oznámenia', // ours
  },
  auth: {
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
    sessionExpired: 'Session vypršala',
  },
  password: {
    weakTitle: 'Slabé heslo',
    tooShort: 'Heslo musí mať aspoň 8 znakov.',
    needsDigit: 'Heslo musí obsahovať aspoň jednu číslicu.',
    mismatchTitle: 'Heslá sa nezhodujú',
    mismatch: 'Zadané heslá sa nezhodujú. Skús to znova.',
  },
  errors: {
    invalidCredentials: 'Nesprávny e-mail alebo heslo.',
    signInFailed: 'Nepodarilo sa prihlásiť. Skús to znova.',
    generic: 'Niečo sa pokazilo. Skús to znova.',
    magicLinkFailed: 'Nepodarilo sa odoslať magic link. Skús to znova.',
    forgotFailed: 'Nepodarilo sa odoslať email. Skús to znova.',
    settingsResetFailed: 'Nepodarilo sa odoslať email na reset hesla. Skús to znova.',
    signOutFailed: 'Nepodarilo sa odhlásiť. Skús to znova.',
    passwordChangeFailed: 'Nepodarilo sa zmeniť heslo. Skús to znova.',
    invalidLink: 'Neplatný alebo expirovaný odkaz. Skús to znova.',
    missingParams: 'Chýbajú autentifikačné parametre.',
    accountFetch: 'Failed to fetch account',
    noAuthProvider: 'useAuth must be used within an AuthProvider',
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
  },
  chats: {
    searchPlaceholder: 'Hľadať konverzáciu…',
    loading: 'Načítavam konverzácie...',
  },
  status: {
    active: 'Aktívne',
    completed: 'Ukončené',
  },
  specialists: {
    title: 'Špecialisti',
    subtitle: 'Vyberte si AI alebo ľudského experta a začnite chat.',
  },
  placeholder: {
    chats: 'Tu bude zoznam konverzácií: vyhľadávanie, filtre, archivované konverzácie a nové správy.', // ours
    chat: 'Tu bude konverzácia so špecialistom: správy, písanie a odosielanie.', // ours
    archived: 'Tu budú archivované konverzácie, ktoré sa dajú obnoviť.', // ours
    specialists: 'Tu bude zoznam špecialistov, s ktorými môžeš začať chat.', // ours
    admin: 'Tu budú nástroje pre správcov.', // ours
  },
  badges: {
    unread: (n: number) => `${n} neprečítaných`, // ours: screen-reader label
  },
  time: {
    now: 'Teraz',
    hours: (n: number) => `${n}h`,
    days: (n: number) => `${n}d`,
  },
  files: {
    unknownSize: 'Neznáma veľkosť',
  },
} as const;
