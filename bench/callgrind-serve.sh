#!/bin/bash
# Instructions per request of a whole server process (bench/RESULTS.md, issue 27, front door): callgrind of the
# server, WARM requests with instrumentation off (TurboFan settles), instrumentation on, 2,000 more, counters
# zeroed, N counted, dumped; all on the same 4 keep-alive connections (bench/callgrind-client.mjs: a new client's
# connections make V8 re-optimise Node's socket code inside the counted window). Deterministic on a loaded machine.
#   PORT=3241 bench/callgrind-serve.sh read /orders/ID 20000 2000 GET "" node --single-threaded dist/cli/cli-main.js \
#     serve ../shared/bench/orders-plain.yaml --db sqlite:s.db --synchronous normal --log silent --port 3241
NAME=$1; URLP=$2; WARM=$3; N=$4; METHOD=${5:-GET}; BODY=$6; shift 6
OUT=${CALLGRIND_DIR:-/tmp}/callgrind-$NAME
rm -f $OUT.*
valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=$OUT.%p "$@" >$OUT.log 2>&1 &
VPID=$!
for i in $(seq 1 600); do curl -s -o /dev/null localhost:$PORT/_servicespec/health && break; curl -s -o /dev/null localhost:$PORT/orders && break; sleep 0.5; done
node "$(dirname "$0")/callgrind-client.mjs" $PORT $URLP $WARM $N $VPID $METHOD "$BODY"
sleep 2
kill $VPID; wait $VPID 2>/dev/null
TOT=$(grep -h "^totals:" $OUT.$VPID.1 | awk '{print $2}')
echo "$NAME: $TOT instructions over $N requests -> $(( TOT / N )) per request ($(date -u +%H:%M), load $(cut -d' ' -f1 /proc/loadavg))"
