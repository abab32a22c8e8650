#!/usr/bin/env bash
# The tester's default run against `servicespec serve` of examples/orders.yaml limited to 50 requests a minute per
# credential (a copy whose only change is that budget): it must complete (not INCOMPLETE), pacing itself on the
# service's RateLimit headers. Prints the report (its summary says how long it waited and why) and the wall time.
# Usage: bench/tester-rate-limited.sh [extra servicespec test flags...]   (the issue's target: complete in < 300 s)
set -euo pipefail
cd "$(dirname "$0")/.."
D=$(mktemp -d)
sed 's/requests: 100$/requests: 50/' examples/orders.yaml >"$D/orders-50.yaml"
grep -q 'requests: 50$' "$D/orders-50.yaml"
start=$(date +%s.%N)
SPEC_OVERRIDE="$D/orders-50.yaml" bench/tester-serve.sh --format text "$@"
end=$(date +%s.%N)
rm -rf "$D"
echo "wall time: $(echo "$end - $start" | bc) s"
