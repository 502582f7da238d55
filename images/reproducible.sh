#!/usr/bin/env bash
# Reproducible images: builds the images again from clean and compares each image digest with the
# one the previous build wrote (app/target/jib-image.digest, ...). Run after a build with
# -Pimage (as .ci/run does); with no previous build it builds twice. Exit 1 on a difference.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${DELAYQ_IMAGE_BASE:-$(bash .ci/install-containers.sh | sed -n 's/^DELAYQ_IMAGE_BASE=//p')}
# (the example's handler image is podman-built; HandlerImageContainerTest builds it twice and compares)
modules=(app operator)
list=$(IFS=,; echo "${modules[*]}")

build() {
  local log
  log=$(mktemp)
  if ! mvn -B -ntp -q ${MAVEN_OFFLINE:+-o} -Pimage -Dimage.base="$base" -DskipTests -pl "$list" -am clean package >"$log" 2>&1; then
    echo "reproducible: the image build failed:" >&2
    cat "$log" >&2
    rm -f "$log"
    exit 1
  fi
  rm -f "$log"
}
declare -A first
for m in "${modules[@]}"; do
  [ -s "$m/target/jib-image.digest" ] || { build; break; }
done
for m in "${modules[@]}"; do first[$m]=$(cat "$m/target/jib-image.digest"); done
build
status=0
for m in "${modules[@]}"; do
  again=$(cat "$m/target/jib-image.digest")
  if [ "${first[$m]}" = "$again" ]; then
    echo "reproducible: $m $again"
  else
    echo "NOT reproducible: $m ${first[$m]} then $again" >&2
    status=1
  fi
done
exit $status
