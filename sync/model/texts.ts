// The spec's texts that the engine itself produces (user-area.md sections 4, 7 and 8).
export const TEXT_OFFLINE = 'Problém s internetom, skontrolujte svoje pripojenie';
export const TEXT_LOAD_FAILED = 'Nepodarilo sa načítať konverzácie';
export const TEXT_LOAD_FAILED_AFTER_RECONNECT = 'Nepodarilo sa načítať konverzácie po obnovení pripojenia';
export const TEXT_SEND_FAILED = 'Failed to send message';
export const TEXT_START_FAILED = 'Nepodarilo sa spustiť konverzáciu. Skúste to znova.';
export const TEXT_REQUEST_NO_ACCOUNT = 'Nepodarilo sa identifikovať účet';
export const TEXT_REQUEST_FAILED = 'Nepodarilo sa odoslať žiadosť. Skúste to znova.';
export const REQUEST_SPECIALIST_PREFIX = 'Mám záujem o vytvorenie projektu s ';
// ours (issue 18): the session is gone; what a queued message waits for, or why it failed.
export const TEXT_NEEDS_SIGN_IN = 'Prihláste sa znova. Neodoslané správy počkajú a odošlú sa po prihlásení.';
export const TEXT_WAITS_FOR_NETWORK = 'Čaká na pripojenie';
export const TEXT_WAITS_FOR_SIGN_IN = 'Čaká na prihlásenie';
export const TEXT_CONVERSATION_GONE = 'Konverzácia už neexistuje, správa sa neodoslala';
export const TEXT_CONVERSATION_COMPLETED = 'Konverzácia je ukončená, správa sa neodoslala';
// ours (issue 35, R17): the device's storage (IndexedDB) failed.
export const TEXT_STORAGE_UNAVAILABLE =
  'Tento prehliadač nedovolil uložiť správy do zariadenia (súkromné okno, plný disk alebo chyba úložiska). Správy sa načítajú, až keď bude úložisko dostupné; skúste stránku obnoviť.';
export const TEXT_STORAGE_BLOCKED = 'Poradňa je otvorená v inej karte so staršou verziou. Zatvorte ostatné karty Poradne, aby sa mohla aktualizovať.';
