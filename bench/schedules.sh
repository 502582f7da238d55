#!/usr/bin/env bash
# Recurring tasks at scale (io.delayq.bench.ScheduleBench): 10,000 schedules each firing every minute,
# planned by two planners as the worker fleet would, against a baseline of the same tasks enqueued by
# a producer, on a redis-server the harness starts itself. Prints Redis CPU and memory and each
# occurrence's lag; no pass or fail.
#   ./bench/schedules.sh                        10,000 schedules, 3 minutes per phase (about 10 minutes)
#   ./bench/schedules.sh --schedules 1000 --minutes 1
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
lock="${DELAYQ_MVN_LOCK:-/tmp/delayq-mvn.lock}"
mvn_cmd=(mvn -B -ntp -q -pl bench -am package -DskipTests)
if command -v flock >/dev/null; then
  flock "$lock" "${mvn_cmd[@]}"
else
  "${mvn_cmd[@]}"
fi
exec java -Xms512m -Xmx2g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  -cp "bench/target/delayq-bench.jar:bench/target/lib/*" io.delayq.bench.ScheduleBench "$@"
