-- Reference data every deployment needs: the specialists and which plan includes whom. Without it
-- no plan has specialists and no screen can create them (issue 17 item 5), so it ships with the
-- migrations (`supabase db push` applies it to production) instead of the demo seed. Idempotent, and
-- never overwrites: a specialist or plan assignment changed in production stays as it is.
-- The plans and the assistant come from 20261122000100_core_schema.sql. Demo logins and chats stay
-- in supabase/seed.sql, which only `npm start` and the tests load (SEED=true).

insert into public.specialists (id, name, role, seniority, avatar_url, bio, skills, is_ai, default_tier) values
  ('00000000-0000-4000-8000-000000000010', 'Lucia Horváthová', 'Stratégia sociálnych sietí', 'Senior',
   '/avatars/lucia-horvathova.svg',
   'Pomáham malým značkám rásť na Instagrame a TikToku: od obsahového plánu po vyhodnotenie kampaní.',
   array['Instagram', 'TikTok', 'Obsahový plán', 'Komunita', 'Analytika'], true, 'FREE'),
  ('00000000-0000-4000-8000-000000000011', 'Martin Kováč', 'SEO špecialista', 'Medior',
   '/avatars/martin-kovac.svg',
   'Zlepším viditeľnosť vášho webu vo vyhľadávačoch: technické SEO, obsah a lokálne vyhľadávanie.',
   array['Technické SEO', 'Kľúčové slová', 'Google Search Console', 'Lokálne SEO'], true, 'FREE'),
  ('00000000-0000-4000-8000-000000000012', 'Tomáš Baláž', 'E-mailový marketing', 'Medior',
   '/avatars/tomas-balaz.svg',
   'Navrhnem newslettery, ktoré ľudia naozaj otvárajú, a automatizácie, ktoré predávajú za vás.',
   array['Newslettery', 'Automatizácie', 'Segmentácia', 'A/B testy'], true, 'FREE'),
  ('00000000-0000-4000-8000-000000000013', 'Peter Novák', 'PPC a výkonnostný marketing', 'Senior',
   '/avatars/peter-novak.svg',
   'Nastavím a optimalizujem kampane vo Google Ads a na Meta tak, aby každé euro pracovalo.',
   array['Google Ads', 'Meta Ads', 'Remarketing', 'Rozpočty', 'Konverzie'], true, 'PRO'),
  ('00000000-0000-4000-8000-000000000014', 'Michal Tóth', 'Dátový analytik', 'Senior',
   '/avatars/michal-toth.svg',
   'Z čísel vo vašom webe a reklamách urobím jasné odporúčania. Reporty bez zbytočného žargónu.',
   array['Google Analytics 4', 'Reporty', 'Konverzný pomer', 'Looker Studio'], true, 'PRO'),
  ('00000000-0000-4000-8000-000000000015', 'Zuzana Bieliková', 'Copywriterka', 'Senior',
   '/avatars/zuzana-bielikova.svg',
   'Píšem texty na web, do kampaní aj na obaly. Jasne, ľudsky a s ohľadom na SEO.',
   array['Texty na web', 'Slogany', 'Produktové popisy', 'Tón značky'], false, 'PRO'),
  ('00000000-0000-4000-8000-000000000016', 'Jana Vargová', 'PR a komunikácia', 'Lead',
   '/avatars/jana-vargova.svg',
   'Dostanem vašu značku do médií a pripravím vás na krízovú komunikáciu skôr, než ju budete potrebovať.',
   array['Tlačové správy', 'Vzťahy s médiami', 'Krízová komunikácia', 'Eventy'], false, 'PRO'),
  ('00000000-0000-4000-8000-000000000017', 'Katarína Šimková', 'Brand dizajnérka', 'Lead',
   '/avatars/katarina-simkova.svg',
   'Vytvorím vizuálnu identitu, ktorá sa dá spoznať na prvý pohľad: logo, farby, typografia a manuál.',
   array['Logo', 'Vizuálna identita', 'Brand manuál', 'Obaly'], false, 'ENTERPRISE'),
  ('00000000-0000-4000-8000-000000000018', 'Eva Poláková', 'Video produkcia', 'Medior',
   '/avatars/eva-polakova.svg',
   'Natočím a zostrihám krátke videá na sociálne siete aj reklamné spoty, od scenára po titulky.',
   array['Reels', 'Strih', 'Scenáre', 'Titulky'], false, 'ENTERPRISE')
on conflict (id) do nothing;

insert into public.plan_specialists (plan_id, specialist_id)
select p.id, v.specialist_id::uuid
  from (values
    ('FREE', '00000000-0000-4000-8000-000000000010'), ('FREE', '00000000-0000-4000-8000-000000000011'),
    ('FREE', '00000000-0000-4000-8000-000000000012'),
    ('PRO', '00000000-0000-4000-8000-000000000010'), ('PRO', '00000000-0000-4000-8000-000000000011'),
    ('PRO', '00000000-0000-4000-8000-000000000012'), ('PRO', '00000000-0000-4000-8000-000000000013'),
    ('PRO', '00000000-0000-4000-8000-000000000014'), ('PRO', '00000000-0000-4000-8000-000000000015'),
    ('PRO', '00000000-0000-4000-8000-000000000016'),
    ('ENTERPRISE', '00000000-0000-4000-8000-000000000010'), ('ENTERPRISE', '00000000-0000-4000-8000-000000000011'),
    ('ENTERPRISE', '00000000-0000-4000-8000-000000000012'), ('ENTERPRISE', '00000000-0000-4000-8000-000000000013'),
    ('ENTERPRISE', '00000000-0000-4000-8000-000000000014'), ('ENTERPRISE', '00000000-0000-4000-8000-000000000015'),
    ('ENTERPRISE', '00000000-0000-4000-8000-000000000016'), ('ENTERPRISE', '00000000-0000-4000-8000-000000000017'),
    ('ENTERPRISE', '00000000-0000-4000-8000-000000000018')
  ) as v(plan_code, specialist_id)
  join public.plans p on p.code = v.plan_code
on conflict do nothing;
