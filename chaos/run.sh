#!/usr/bin/env bash
# The chaos suite in one command: builds the packaged worker and the recorder jar, then runs the
# scenarios and writes the summary table into docs/reliability.md.
#   ./chaos/run.sh            full run (100,000 tasks, 5 worker kills, Redis restarts, SIGSTOP, cluster failovers; ~7 min)
#   ./chaos/run.sh --short    the shortened run CI executes (~1.5 min)
#   ./chaos/run.sh --only kill-fsync-always,redis-sigstop    selected scenarios (report under chaos/target/chaos-run/)
set -euo pipefail
cd "$(dirname "$0")/.."

build=(mvn -B -ntp -q -pl chaos -am package -DskipTests)
# on shared machines Maven runs one at a time
if command -v flock >/dev/null; then
  flock "${DELAYQ_MVN_LOCK:-/tmp/delayq-maven.lock}" "${build[@]}"
else
  "${build[@]}"
fi

exec java -Xmx512m -Ddelayq.repo.root="$PWD" -cp "chaos/target/delayq-chaos.jar:chaos/target/lib/*" io.delayq.chaos.ChaosMain "$@"
