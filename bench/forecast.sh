#!/usr/bin/env bash
# What a whole-queue due forecast costs Redis (io.delayq.bench.ForecastCost): forecast.lua against stats.lua (the
# baseline) on every shard of a queue of 16 and of 1,024 shards, idle and with 100,000 tasks waiting over the next
# hour, on a redis-server the harness starts itself. Prints Redis' time per whole-queue read (INFO commandstats,
# usec of evalsha) side by side with the ratio, and writes it into docs/bench.md (the bench:forecast-cost section);
# no pass or fail.
#   ./bench/forecast.sh                                  about 10 seconds
#   ./bench/forecast.sh --shards 16 --reps 5 --no-docs   a quick look
set -euo pipefail
source "$(dirname "$0")/harness.sh"
build_bench
run_bench io.delayq.bench.ForecastCost "$@"
