#!/usr/bin/env bash
# Direct enqueue against the PostgreSQL outbox (io.delayq.bench.OutboxBench): latency until the task is in Redis
# (direct call, 1-row and 100-row transactions relayed on NOTIFY), throughput through one and two relays (a backlog
# drained, and live while producers write), and PostgreSQL's cost (rows/s, WAL bytes per task), side by side on a
# redis-server and a PostgreSQL 15 the harness starts itself. Writes docs/bench.md (the bench:outbox section); no
# pass or fail.
#   ./bench/outbox.sh                                   2 runs (about 10 minutes on 2 cores)
#   ./bench/outbox.sh --runs 1 --tasks 50000 --no-docs  a quick look
#   ./bench/outbox.sh --fast-pg                         PostgreSQL with fsync, synchronous_commit, full_page_writes off
set -euo pipefail
source "$(dirname "$0")/harness.sh"
# offline, through the lock every Maven run on this machine takes turns on
flock "${DELAYQ_MVN_LOCK:-/tmp/delayq-build.lock}" mvn -o -B -ntp -q -pl bench -am package -DskipTests
run_bench io.delayq.bench.OutboxBench "$@"
