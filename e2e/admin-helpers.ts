// Shared pieces of the admin journeys: the announced origin, sign-in, the database and toasts.
import { expect, type Page } from '@playwright/test';
import pg from 'pg';

export const ADMIN = { email: 'admin@poradna.test', password: 'poradna123' } as const;
export const MEMBER = { email: 'demo@poradna.test', password: 'poradna123' } as const;

/** The origin the stack announces in /env.js (the app's backend), so the session and CORS match. */
export async function announcedOrigin(baseURL: string): Promise<string> {
  const script = await (await fetch(`${baseURL}/env.js`)).text();
  const announced = /"supabaseUrl"\s*:\s*"([^"]+)"/.exec(script)?.[1];
  return announced ? new URL(announced).origin : baseURL;
}

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/auth/login');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Heslo', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Prihlásiť', exact: true }).click();
  await expect(page).toHaveURL(/\/app\//);
}

export async function query<T extends pg.QueryResultRow>(databaseUrl: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

export function toast(page: Page, text: string | RegExp) {
  return page.locator('[data-sonner-toast]').filter({ hasText: text }).first();
}
