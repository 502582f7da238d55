#!/usr/bin/env bash
# Runs a command on a PATH that holds every program of the current PATH except Redis's
# (redis-server, redis-cli, ...), with DELAYQ_REDIS_SERVER unset: what a machine with only a JDK and
# Maven offers. Tests then get the Redis 6.2 that the embedded-redis test dependency ships, which is
# the fresh-machine path of the README's test command, even on a machine where Redis is installed.
#
# Usage: .ci/without-redis.sh COMMAND [ARGS...]
set -euo pipefail
shim="$(mktemp -d /tmp/delayq-no-redis.XXXXXX)"
trap 'rm -rf "$shim"' EXIT
IFS=: read -r -a dirs <<< "$PATH"
for d in "${dirs[@]}"; do
  [ -d "$d" ] || continue
  for f in "$d"/*; do
    name="${f##*/}"
    case "$name" in redis-*) continue ;; esac
    # the first directory on PATH wins, as it would without the shim
    [ -e "$shim/$name" ] || { [ -x "$f" ] && [ ! -d "$f" ] && ln -s "$f" "$shim/$name"; } || true
  done
done
unset DELAYQ_REDIS_SERVER
export PATH="$shim"
if command -v redis-server >/dev/null 2>&1; then
  echo "without-redis: redis-server is still visible" >&2
  exit 1
fi
echo "without-redis: PATH hides redis-server and redis-cli; tests use the embedded Redis 6.2"
"$@"
