#!/usr/bin/env bash
# Fairness between tenants (io.delayq.bench.FairnessBench): p99 lag of a quiet tenant at 100 tasks/s while a
# noisy tenant's 100,000 tasks come due at one instant, with groups and without, interleaved on a redis-server
# the harness starts itself. Prints the table; --doc writes docs/bench-fairness.md. No pass or fail.
#   ./bench/fairness.sh --doc docs/bench-fairness.md    100,000-task burst, 2 rounds (about 2 minutes)
#   ./bench/fairness.sh --burst 20000 --rounds 1
set -euo pipefail
source "$(dirname "$0")/harness.sh"
build_bench
run_bench io.delayq.bench.FairnessBench "$@"
