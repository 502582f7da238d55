#!/usr/bin/env bash
# What a live grow costs the tasks that keep firing (io.delayq.bench.ReshardBench): 1,000,000 waiting tasks on
# 16 shards, 1,000 new tasks/s fired by a worker over the whole queue, first without a migration (baseline), then
# while the mover grows the queue to 64 shards, on a redis-server the harness starts itself. Prints lag p50/p99/max,
# Redis CPU, the longest single calls (SLOWLOG, LATENCY) and lost/early/duplicate counts, and writes them into
# docs/resharding.md (the bench:reshard section); no pass or fail.
#   ./bench/reshard.sh                              2 runs of the full size (about 5 minutes each on 2 cores)
#   ./bench/reshard.sh --waiting 100000 --runs 1 --no-docs      a quick look
set -euo pipefail
source "$(dirname "$0")/harness.sh"
build_bench
run_bench io.delayq.bench.ReshardBench "$@"
