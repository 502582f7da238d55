#!/usr/bin/env bash
# What tracing costs on W1 (io.delayq.bench.TracingBench): 100,000 due tasks drained by one worker with
# tracing off, off with a trace context in every record, and on (an SDK with the batch span processor),
# interleaved on a redis-server the harness starts itself. Prints tasks/s and the ratio to "off"; no pass or fail.
#   ./bench/tracing.sh                       100,000 tasks, 3 rounds (about 2 minutes)
#   ./bench/tracing.sh --tasks 20000 --rounds 1
set -euo pipefail
source "$(dirname "$0")/harness.sh"
build_bench
run_bench io.delayq.bench.TracingBench "$@"
