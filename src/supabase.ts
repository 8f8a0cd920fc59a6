import { createClient } from '@supabase/supabase-js';
import { readAppEnv } from './env.ts';

const env = readAppEnv();
export const supabase = createClient(env.supabaseUrl, env.anonKey, {
  auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
});
