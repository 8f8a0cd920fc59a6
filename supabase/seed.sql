-- Demo data for a fresh local database (runs once, as the migration owner, after the migrations), for
-- `npm start` and the tests (SEED=true, the default locally). Never load it into production: it
-- creates logins with a published password. Reference data (plans, specialists, the assistant) is in
-- the migrations (20261123000200_reference_data.sql) and deploys with them.
-- Logins (password poradna123): demo@poradna.test (member, account "demo Account", plan PRO),
-- admin@poradna.test (super admin), druhy@poradna.test (member of a second account, plan FREE).
-- Accounts are created by the signup trigger; the seed only adjusts plans and adds chats.
-- Fixed ids keep e2e tests and bookmarks stable: specialists 00000000-0000-4000-8000-0000000000xx,
-- users 00000000-0000-4000-a000-00000000000x, conversations 00000000-0000-4000-b000-0000000000xx.

-- pgcrypto (crypt, gen_salt) lives in `extensions`, locally as on Supabase.
set local search_path = public, extensions, pg_catalog;

-- ---------------------------------------------------------------- users (the trigger creates accounts)
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select '00000000-0000-0000-0000-000000000000', u.id::uuid, 'authenticated', 'authenticated', u.email,
       crypt('poradna123', gen_salt('bf', 10)), now() - interval '30 days',
       '{"provider": "email", "providers": ["email"]}'::jsonb, '{}'::jsonb,
       now() - interval '30 days', now() - interval '30 days'
  from (values
    ('00000000-0000-4000-a000-000000000001', 'demo@poradna.test'),
    ('00000000-0000-4000-a000-000000000002', 'admin@poradna.test'),
    ('00000000-0000-4000-a000-000000000003', 'druhy@poradna.test')
  ) as u(id, email);

-- GoTrue on Supabase scans these token columns as strings; NULL breaks sign-in there. The local
-- auth schema has none of them, hence the guard.
do $$
declare
  c text;
begin
  foreach c in array array['confirmation_token', 'recovery_token', 'email_change_token_new',
                           'email_change_token_current', 'email_change', 'phone_change',
                           'phone_change_token', 'reauthentication_token'] loop
    if exists (select 1 from information_schema.columns
                where table_schema = 'auth' and table_name = 'users' and column_name = c) then
      execute format('update auth.users set %1$I = coalesce(%1$I, %2$L) where email like %3$L', c, '', '%@poradna.test');
    end if;
  end loop;
end $$;

insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select u.id::text, u.id,
       jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true),
       'email', null, u.created_at, u.created_at
  from auth.users u where u.email like '%@poradna.test';

insert into public.app_users (user_id, role) values ('00000000-0000-4000-a000-000000000002', 'super_admin');

update public.accounts a set plan = 'PRO' from public.account_users au
 where au.account_id = a.id and au.user_id = '00000000-0000-4000-a000-000000000001';
update public.accounts a set plan = 'ENTERPRISE' from public.account_users au
 where au.account_id = a.id and au.user_id = '00000000-0000-4000-a000-000000000002';

-- ---------------------------------------------------------------- conversations and messages
create function pg_temp.msg(p_conv uuid, p_direction text, p_text text, p_ago interval,
                            p_type text default 'text', p_payload jsonb default null) returns uuid
language sql as $$
  insert into public.messages (conversation_id, direction, text, type, payload, created_at, source, sender_user_id)
  values (p_conv, p_direction, p_text, p_type, p_payload, now() - p_ago,
          case p_direction when 'user' then 'app' when 'system' then 'system'
               else (select case when s.is_ai then 'ai' else 'agent' end
                       from public.conversations c join public.specialists s on s.id = c.specialist_id
                      where c.id = p_conv) end,
          case when p_direction = 'user'
               then (select au.user_id from public.conversations c
                       join public.account_users au on au.account_id = c.account_id and au.role = 'owner'
                      where c.id = p_conv) end)
  returning id
$$;

create function pg_temp.conv(p_id uuid, p_user uuid, p_specialist uuid, p_ago interval) returns uuid
language sql as $$
  insert into public.conversations (id, account_id, specialist_id, created_at)
  select p_id, au.account_id, p_specialist, now() - p_ago from public.account_users au where au.user_id = p_user
  returning id
$$;

create function pg_temp.read(p_user uuid, p_conv uuid, p_message uuid) returns void
language sql as $$
  insert into public.read_cursors (user_id, conversation_id, last_read_message_id) values (p_user, p_conv, p_message)
$$;

do $$
declare
  demo constant uuid := '00000000-0000-4000-a000-000000000001';
  druhy constant uuid := '00000000-0000-4000-a000-000000000003';
  assistant constant uuid := '00000000-0000-4000-8000-000000000001';
  lucia constant uuid := '00000000-0000-4000-8000-000000000010';
  martin constant uuid := '00000000-0000-4000-8000-000000000011';
  tomas constant uuid := '00000000-0000-4000-8000-000000000012';
  peter constant uuid := '00000000-0000-4000-8000-000000000013';
  michal constant uuid := '00000000-0000-4000-8000-000000000014';
  zuzana constant uuid := '00000000-0000-4000-8000-000000000015';
  c uuid;
  m uuid;
begin
  -- The assistant: request-specialist flow, a system notice and a specialist card. 2 unread.
  c := pg_temp.conv('00000000-0000-4000-b000-000000000001', demo, assistant, '10 days');
  perform pg_temp.msg(c, 'specialist',
    'Dobrý deň! Som asistent Poradne. Napíšte mi, s čím potrebujete pomôcť, alebo si v záložke **Špecialisti** vyberte odborníka, s ktorým chcete začať.',
    '10 days');
  perform pg_temp.msg(c, 'user', 'Mám záujem o vytvorenie projektu s Zuzana Bieliková', '9 days');
  perform pg_temp.msg(c, 'specialist',
    'Ďakujeme! Vašu požiadavku sme odovzdali **Zuzane Bielikovej**. Ozve sa vám do 24 hodín v novej konverzácii.',
    '9 days' - interval '2 minutes');
  perform pg_temp.msg(c, 'system', 'Žiadosť odoslaná: Zuzana Bieliková', '9 days' - interval '3 minutes',
    'text', '{"system_type": "request_sent", "color": "green"}');
  m := pg_temp.msg(c, 'user', 'Potrebovali by sme pomôcť aj s reklamami na Facebooku a Instagrame.', '2 days');
  perform pg_temp.read(demo, c, m);
  perform pg_temp.msg(c, 'specialist',
    'Na výkonnostné kampane vám odporúčam **Petra Nováka**. Aktivujte si ho jedným klikom:',
    '2 days' - interval '1 minute');
  perform pg_temp.msg(c, 'specialist', 'Peter Novák – PPC a výkonnostný marketing', '2 days' - interval '2 minutes',
    'json', jsonb_build_object('kind', 'rich_content', 'specialist_id', peter, 'allocated_credits', 50,
      'welcome_text', 'Dobrý deň, som Peter. Pošlite mi, prosím, aký máte mesačný rozpočet na reklamu a čo chcete propagovať.'));

  -- Lucia (AI): markdown, a table and a rich message with images and a file. 3 unread.
  c := pg_temp.conv('00000000-0000-4000-b000-000000000002', demo, lucia, '3 days');
  perform pg_temp.msg(c, 'user',
    'Ahoj Lucia, chystáme jarnú kampaň pre našu kaviareň v Trnave. Kde začať na Instagrame?', '3 days');
  m := pg_temp.msg(c, 'specialist', $md$Skvelá téma! Navrhujem začať takto:

## 1. Cieľ a publikum
- **Cieľ:** viac návštev v pracovných dňoch medzi 7:00 a 10:00
- **Publikum:** študenti a ľudia cestou do práce, 18 – 35 rokov

## 2. Obsah na 3 týždne
1. Reel s prípravou jarného nápoja
2. Karusel *Ľudia za barom*
3. Stories s anketou o novej príchuti

> Tip: uverejňujte ráno medzi 7:00 a 8:00, keď vaše publikum scrolluje cestou do práce.

Viac o formátoch nájdete v [centre pre tvorcov](https://creators.instagram.com/).$md$, '3 days' - interval '1 minute');
  perform pg_temp.read(demo, c, m);
  perform pg_temp.msg(c, 'user', 'Super, a koľko príspevkov týždenne?', '1 day');
  perform pg_temp.msg(c, 'specialist', $md$Pre malú kaviareň stačia **3 príspevky týždenne** a denne 2 – 3 stories. Pravidelnosť je dôležitejšia než počet.

| Deň | Formát |
|---|---|
| Pondelok | Reel |
| Streda | Karusel |
| Piatok | Fotka a príbeh zákazníka |$md$, '1 day' - interval '1 minute');
  perform pg_temp.msg(c, 'specialist', 'Posielam návrh vizuálu, mriežky a obsahový plán v PDF:', '1 day' - interval '2 minutes',
    'rich', jsonb_build_object('attachments', jsonb_build_array(
      jsonb_build_object('id', 'att-jarna-kampan', 'file_type', 'image', 'name', 'jarna-kampan.png',
        'data_url', '/samples/jarna-kampan.png', 'thumb_url', '/samples/jarna-kampan-thumb.png',
        'width', 640, 'height', 400, 'file_size', 91544),
      jsonb_build_object('id', 'att-instagram-mriezka', 'file_type', 'image', 'name', 'instagram-mriezka.png',
        'data_url', '/samples/instagram-mriezka.png', 'thumb_url', '/samples/instagram-mriezka-thumb.png',
        'width', 640, 'height', 400, 'file_size', 15994),
      jsonb_build_object('id', 'att-obsahovy-plan', 'file_type', 'document', 'name', 'obsahovy-plan.pdf',
        'data_url', '/samples/obsahovy-plan.pdf', 'thumb_url', null,
        'width', null, 'height', null, 'file_size', 30608))));

  -- Martin (AI): a code block; everything read.
  c := pg_temp.conv('00000000-0000-4000-b000-000000000003', demo, martin, '6 days');
  perform pg_temp.msg(c, 'user',
    'Dobrý deň, naša stránka zrnko.sk sa nezobrazuje na Googli pri hľadaní „kaviareň Trnava“. Čo s tým?', '6 days');
  perform pg_temp.msg(c, 'specialist', $md$Skontrolujte najprv tieto tri veci:

1. Máte web pridaný v **Google Search Console**?
2. Titulok domovskej stránky by mal obsahovať „kaviareň Trnava“:

```html
<title>Kaviareň Zrnko – výberová káva v centre Trnavy</title>
```

3. Založte si profil **Firmy na Googli** s rovnakou adresou ako na webe.$md$, '6 days' - interval '1 minute');
  perform pg_temp.msg(c, 'user', 'Ďakujem, Search Console už máme. Titulok upravím ešte dnes.', '5 days');
  m := pg_temp.msg(c, 'specialist',
    'Výborne. O 2 – 3 týždne skontrolujeme pozície. Medzitým pridajte na web aj stránku s menu – ľudia ju často hľadajú.',
    '5 days' - interval '1 minute');
  perform pg_temp.read(demo, c, m);

  -- Zuzana (human): a completed conversation with its closing notice.
  c := pg_temp.conv('00000000-0000-4000-b000-000000000004', demo, zuzana, '8 days');
  perform pg_temp.msg(c, 'specialist', 'Dobrý deň, som Zuzana. Pošlite mi, prosím, podklady k textom na web.', '8 days');
  perform pg_temp.msg(c, 'user',
    'Chceme texty pre sekcie O nás, Menu a Kontakt. Tón priateľský, nie príliš formálny.', '8 days' - interval '1 hour');
  perform pg_temp.msg(c, 'specialist',
    'Hotovo! Návrh textov nájdete v zdieľanom dokumente. Ak budete chcieť úpravy, napíšte novú požiadavku cez asistenta.',
    '7 days');
  m := pg_temp.msg(c, 'system', 'Konverzácia bola ukončená', '7 days' - interval '1 minute',
    'text', '{"system_type": "status_completed", "color": "red"}');
  perform pg_temp.read(demo, c, m);
  update public.conversations set status = 'completed' where id = c;

  -- Tomáš (AI): archived.
  c := pg_temp.conv('00000000-0000-4000-b000-000000000005', demo, tomas, '20 days');
  perform pg_temp.msg(c, 'user', 'Ako často máme posielať newsletter?', '20 days');
  m := pg_temp.msg(c, 'specialist',
    'Pre kaviareň odporúčam **raz za dva týždne**. Vždy s jednou hlavnou správou: novinka v ponuke, akcia alebo príbeh z kaviarne.',
    '20 days' - interval '1 minute');
  perform pg_temp.read(demo, c, m);
  update public.conversations set archived_at = now() - interval '15 days' where id = c;

  -- Michal (AI): never opened, 1 unread.
  c := pg_temp.conv('00000000-0000-4000-b000-000000000006', demo, michal, '12 hours');
  perform pg_temp.msg(c, 'user', 'Máme 1 200 návštev webu mesačne a 30 objednávok. Je to dobré?', '12 hours');
  perform pg_temp.msg(c, 'specialist',
    'Konverzný pomer je **2,5 %** (30 / 1 200). Pre malý e-shop s kávou je to *nad priemerom*. Ďalší rast hľadajte skôr v návštevnosti než v konverziách.',
    '12 hours' - interval '1 minute');

  -- The second account: its own member and chat, invisible to demo.
  c := pg_temp.conv('00000000-0000-4000-b000-000000000011', druhy, lucia, '4 days');
  perform pg_temp.msg(c, 'user', 'Dobrý deň, predávame ručne robenú keramiku. Ako na TikTok?', '4 days');
  m := pg_temp.msg(c, 'specialist',
    'Ukazujte proces: krátke videá z dielne, od hliny po hotový hrnček. Na TikToku vyhráva autentickosť nad dokonalosťou.',
    '4 days' - interval '1 minute');
  perform pg_temp.read(druhy, c, m);
end $$;

-- Seeded questions are answered already: no AI reply jobs for them.
delete from public.ai_reply_jobs;

-- …and were read when they were answered (issue 37 user item 12: they showed ✓, not ✓✓). A human's
-- reply marks the questions before it by trigger (R10.9); an AI's would have through its job
-- (R10.10), which seeding skips. read_at is the first specialist reply after the question.
update public.messages u
   set read_at = (select min(r.created_at) from public.messages r
                   where r.conversation_id = u.conversation_id and r.direction = 'specialist'
                     and (r.created_at, r.id) > (u.created_at, u.id))
 where u.direction = 'user' and u.read_at is null
   and exists (select 1 from public.messages r
                where r.conversation_id = u.conversation_id and r.direction = 'specialist'
                  and (r.created_at, r.id) > (u.created_at, u.id));

insert into public.integration_events (kind, level, data, created_at) values
  ('webhook.message_created', 'info', '{"conversation_id": 101, "message_id": 5001}', now() - interval '2 hours'),
  ('api.send_failed', 'error', '{"conversation_id": 102, "status": 502, "error": "Bad Gateway"}', now() - interval '1 hour');
