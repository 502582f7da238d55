#!/usr/bin/env bash
# What forecast autoscaling gains over reactive autoscaling (io.delayq.bench.FleetBench): the operator's own replica
# decision (Autoscaler.decide, Internal against Forecast mode) driving a simulated worker Deployment through a midnight
# spike, a bursty day and a long quiet before one task, with the per-replica throughput measured from a real worker on a
# redis-server the harness starts itself; then the simulator checked once against real in-process workers driven by
# the same decision loop. Prints firing lag p50/p99/max and replica-seconds side by side with the ratios, and writes
# them into docs/bench.md (the bench:fleet-autoscaling section); no pass or fail.
#   ./bench/fleet.sh                                   about 4 minutes (3 of them the real-worker validation)
#   ./bench/fleet.sh --no-validation --no-docs         the simulation alone, about 15 seconds
#   ./bench/fleet.sh --startup 60s --handler-ms 20     other pods, another handler
set -euo pipefail
source "$(dirname "$0")/harness.sh"
# offline, through the lock every Maven run on this machine takes turns on
flock "${DELAYQ_MVN_LOCK:-/tmp/delayq-build.lock}" mvn -o -B -ntp -q -pl bench -am package -DskipTests
run_bench io.delayq.bench.FleetBench "$@"
