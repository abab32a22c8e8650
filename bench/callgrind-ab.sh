#!/bin/bash
# Instructions per request of one build's whole server process for read, list and create (bench/RESULTS.md): a fresh
# SQLite database seeded with 30 orders through the build's own server, then bench/callgrind-serve.sh per scenario.
#   bench/callgrind-ab.sh main /tmp/ab-main && bench/callgrind-ab.sh head .      # each checkout built (npm run build)
set -e
L=$1; D=$(cd "$2" && pwd); OUT=${CALLGRIND_DIR:-/tmp}
SPEC=${SPEC:-$(cd "$(dirname "$0")/.." && pwd)/../shared/bench/orders-plain.yaml}
rm -f "$OUT/$L.db"*
node "$D/dist/cli/cli-main.js" serve "$SPEC" --db "sqlite:$OUT/$L.db" --synchronous normal --log silent --port 3299 >"$OUT/$L-seed.log" 2>&1 &
P=$!
for i in $(seq 1 100); do curl -s -o /dev/null localhost:3299/orders && break; sleep 0.2; done
ID=""
for i in $(seq 1 30); do
  ID=$(curl -s -X POST -H 'content-type: application/json' -d '{"status":"pending","amount":1200,"currency":"EUR"}' localhost:3299/orders | sed -E 's/.*"id":"([^"]+)".*/\1/')
done
kill $P; wait $P 2>/dev/null || true
CG="node --single-threaded $D/dist/cli/cli-main.js serve $SPEC --db sqlite:$OUT/$L.db --synchronous normal --log silent --port 3241"
cd "$(dirname "$0")/.."
PORT=3241 CALLGRIND_DIR=$OUT bench/callgrind-serve.sh "$L-read" "/orders/$ID" 20000 2000 GET "" $CG
PORT=3241 CALLGRIND_DIR=$OUT bench/callgrind-serve.sh "$L-list" "/orders?limit=20" 10000 500 GET "" $CG
PORT=3241 CALLGRIND_DIR=$OUT bench/callgrind-serve.sh "$L-create" /orders 10000 1000 POST '{"status":"pending","amount":1200,"currency":"EUR"}' $CG
