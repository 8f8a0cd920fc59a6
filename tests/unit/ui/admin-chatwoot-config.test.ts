// Issue 21 admin item 9: the Chatwoot settings form refuses what is not a URL and a non-numeric
// account id with their own Slovak messages, before anything is saved.
import { describe, expect, it } from 'vitest';
import { isChatwootConversationId, isUuid, validateConfig } from '../../../src/admin/chatwoot/config-validation.ts';

describe('Chatwoot settings validation', () => {
  it('requires both fields', () => {
    expect(validateConfig('', '1')).toEqual({ ok: false, field: 'both', error: 'Vyplňte všetky povinné polia' });
    expect(validateConfig('https://x.sk', '  ')).toMatchObject({ ok: false, field: 'both' });
  });

  it('refuses "not a url" and other non-URLs with the URL message', () => {
    for (const bad of ['not a url', 'chatwoot.example.com', 'ftp://x.sk', 'javascript:alert(1)', 'https://'])
      expect(validateConfig(bad, '1'), bad).toEqual({ ok: false, field: 'url', error: 'API URL nie je platná adresa. Zadajte celú adresu, napr. https://chatwoot.example.com' });
  });

  it('gives a non-numeric account id its own message', () => {
    for (const bad of ['abc', '1.5', '-3', '0', '12a', '99999999999999999999'])
      expect(validateConfig('https://chatwoot.example.com', bad), bad).toEqual({
        ok: false,
        field: 'accountId',
        error: 'Account ID musí byť kladné celé číslo (číslo účtu v Chatwoote).',
      });
  });

  it('accepts a URL and a positive integer (trimmed)', () => {
    expect(validateConfig(' https://chatwoot.example.com ', ' 7 ')).toEqual({ ok: true, url: 'https://chatwoot.example.com', accountId: 7 });
  });

  it('tells the two kinds of conversation id apart', () => {
    expect(isChatwootConversationId('42')).toBe(true);
    expect(isChatwootConversationId('3f2b1c4e-1111-4222-8333-444455556666')).toBe(false);
    expect(isUuid('3f2b1c4e-1111-4222-8333-444455556666')).toBe(true);
    expect(isUuid('42')).toBe(false);
  });
});
