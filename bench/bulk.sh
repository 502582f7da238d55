#!/usr/bin/env bash
# What one script call of a bulk action costs Redis (io.delayq.bench.BulkBench): 1,000,000 waiting tasks on 16 shards,
# a preview by id prefix, a shift of every task, a run-now of a due window and a cancel by prefix, on a redis-server
# the harness starts itself. Prints the longest single calls from Redis's SLOWLOG and writes them into docs/bench.md
# (the bench:bulk section); no pass or fail.
#   ./bench/bulk.sh                                 the full size (a few minutes on 2 cores)
#   ./bench/bulk.sh --tasks 100000 --no-docs        a quick look
set -euo pipefail
source "$(dirname "$0")/harness.sh"
build_bench
run_bench io.delayq.bench.BulkBench "$@"
