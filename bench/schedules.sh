#!/usr/bin/env bash
# Recurring tasks at scale (io.delayq.bench.ScheduleBench): 10,000 schedules each firing every minute,
# planned by two planners as the worker fleet would, against a baseline of the same tasks enqueued by
# a producer, on a redis-server the harness starts itself. Prints Redis CPU and memory and each
# occurrence's lag; no pass or fail.
#   ./bench/schedules.sh                        10,000 schedules, 3 minutes per phase (about 10 minutes)
#   ./bench/schedules.sh --schedules 1000 --minutes 1
set -euo pipefail
source "$(dirname "$0")/harness.sh"
build_bench
run_bench io.delayq.bench.ScheduleBench "$@"
