#!/usr/bin/env bash
# How fast the console's pages answer with a million waiting tasks (figures, no pass/fail):
#   ./bench/console.sh                       1,000,000 tasks in 16 shards, 40 requests per page
#   ./bench/console.sh --tasks 200000 --shards 4 --requests 20
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
lock="${DELAYQ_MVN_LOCK:-/tmp/delayq-maven.lock}"
mvn_cmd=(mvn -B -ntp -q -pl bench -am package -DskipTests)
if command -v flock >/dev/null; then flock "$lock" "${mvn_cmd[@]}"; else "${mvn_cmd[@]}"; fi
exec java -Xms512m -Xmx2g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
  -cp "bench/target/delayq-bench.jar:bench/target/lib/*" io.delayq.bench.console.ConsoleBench "$@"
