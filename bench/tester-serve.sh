#!/usr/bin/env bash
# The tester against `servicespec serve examples/orders.yaml` as a user runs it: a fresh database, keys and
# payment clients for two subjects and one lacking scopes, then `servicespec test`. Prints the report.
# Usage: bench/tester-serve.sh [extra servicespec test flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
C="node dist/cli/cli-main.js"
D=$(mktemp -d)
DB="sqlite:$D/orders.db"
PORT=${PORT:-3917}
SPEC=${SPEC_OVERRIDE:-examples/orders.yaml}
if [ "${RAISE_RATE_LIMITS:-}" = 1 ]; then
  # The declared 100 requests/min per credential caps any client at that pace; for measuring the tester's own
  # speed, serve a copy whose only difference is a larger budget.
  sed 's/requests: 100$/requests: 100000/; s/requests: 1000$/requests: 1000000/' examples/orders.yaml >"$D/orders.yaml"
  SPEC="$D/orders.yaml"
fi
ALL=orders:read,orders:write,customers:read,customers:write,webhooks:manage
key() { $C keys create $SPEC --db "$DB" --subject "$1" --scopes "$2" "${@:3}" --format json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).key))'; }
client() { $C clients create $SPEC --db "$DB" --subject "$1" --scopes "$2" --format json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);console.log(j.clientId ?? j.client_id, j.clientSecret ?? j.client_secret)})'; }
AK=$(key alice $ALL --create); BK=$(key bob $ALL); CK=$(key carol customers:read)
read -r AI AS < <(client alice orders:write); read -r BI BS < <(client bob orders:write); read -r CI CS < <(client carol customers:read)
$C serve $SPEC --db "$DB" --port "$PORT" --handlers examples/orders-handlers.js >"$D/serve.log" 2>&1 &
SERVE=$!
trap 'kill $SERVE 2>/dev/null; rm -rf "$D"' EXIT
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/customers" && break; sleep 0.2; done
set +e
$C test $SPEC --base-url "http://127.0.0.1:$PORT" \
  --header "X-API-Key: $AK" --client-id "$AI" --client-secret "$AS" \
  --other-header "X-API-Key: $BK" --other-client-id "$BI" --other-client-secret "$BS" \
  --limited-header "X-API-Key: $CK" --limited-client-id "$CI" --limited-client-secret "$CS" --limited-scopes customers:read \
  --no-progress "$@"
echo "exit status: $?"
