#!/usr/bin/env bash
# The delayq benchmark in one command. Builds the harness (Maven module bench/, not part of the
# test suite), installs BullMQ's node packages into bench/bullmq/node_modules from the committed
# package-lock.json, starts its own redis-server on a free loopback port, runs every system in
# turn and writes docs/bench.md, docs/bench-results.csv and docs/bench.png. Sections of docs/bench.md written by
# other benchmarks, profile scripts or by hand sit between <!-- bench:NAME --> and <!-- /bench:NAME --> and are
# kept word for word, after the generated section they followed (DocSectionsTest fails on one outside markers).
#   ./bench/run.sh             the full workloads, twice (about 15-20 minutes on 2 cores)
#   ./bench/run.sh --quick     small workloads for development (a few minutes)
#   ./bench/run.sh --only delayq,bullmq --runs 1 --no-memory    a subset
# Needs a JDK 17, Maven and node >= 20 (redis-server from PATH, else the embedded-redis binary).
set -euo pipefail
source "$(dirname "$0")/harness.sh"
build_bench

if [ ! -d bench/bullmq/node_modules/bullmq ] || [ bench/bullmq/package-lock.json -nt bench/bullmq/node_modules/.package-lock.json ]; then
  (cd bench/bullmq && npm ci --no-audit --no-fund --loglevel=error)
fi

# DELAYQ_BENCH_PROFILE: the rows whose W1 drain is recorded with JFR for the report (empty: none)
# common pool of 2 threads: on 2 cores the worker otherwise delivers webhooks on the blocking path (docs/worker.md), and
# the "Webhook delivery" section measures the asynchronous one beside it
exec java -Xms1g -Xmx3g -XX:+UseParallelGC -Djava.util.concurrent.ForkJoinPool.common.parallelism=2 \
  -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -Dbench.profile="${DELAYQ_BENCH_PROFILE-defaults,1 worker}" \
  -cp "bench/target/delayq-bench.jar:bench/target/lib/*" \
  io.delayq.bench.Main --docs docs --bullmq bench/bullmq "$@"
