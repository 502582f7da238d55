#!/usr/bin/env bash
# Image sizes and start-up time to /readyz of the worker and operator images, run as their pods say,
# beside the worker jar on the host's JDK (the baseline). Prints figures; passes or fails on nothing.
#   images/measure.sh [runs]        (default 5; needs podman, see docs/images.md)
set -euo pipefail
cd "$(dirname "$0")/.."
base=${DELAYQ_IMAGE_BASE:-$(bash .ci/install-containers.sh | sed -n 's/^DELAYQ_IMAGE_BASE=//p')}
mvn -B -ntp -q -Pimage,measure -Dimage.base="$base" -Dmeasure.runs="${1:-5}" -DskipTests \
  -pl images -am verify 2>&1 | grep -v -E '^\[main\]|SLF4J' || true
