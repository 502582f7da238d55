# Sourced by the bench/*.sh scripts: builds the harness (Maven module bench/) and runs one of its mains.
# Builds on a shared machine take turns through one lock (DELAYQ_MVN_LOCK); flock is optional.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

build_bench() {
  local lock="${DELAYQ_MVN_LOCK:-/tmp/delayq-maven.lock}"
  local mvn_cmd=(mvn -B -ntp -q -pl bench -am package -DskipTests)
  if command -v flock >/dev/null; then
    flock "$lock" "${mvn_cmd[@]}"
  else
    "${mvn_cmd[@]}"
  fi
}

# run_bench MAIN_CLASS [ARGS...]: the harness's JVM, quiet logging, replacing this shell
run_bench() {
  local main="$1"
  shift
  exec java -Xms512m -Xmx2g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -cp "bench/target/delayq-bench.jar:bench/target/lib/*" "$main" "$@"
}
