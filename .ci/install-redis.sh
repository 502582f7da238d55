#!/usr/bin/env bash
# Debian's Redis 7 (redis-server, redis-cli) and python3-redis: the second CI pass runs the
# Redis-version-sensitive tests (ACL, TLS) on it and the tests that drive redis-cli and Python
# producers. Idempotent: installs only what is missing. The tests start their own servers on free
# ports; a server the package may start on 6379 is not used.
set -euo pipefail
need=()
command -v redis-server >/dev/null || need+=(redis-server)
command -v redis-cli >/dev/null || need+=(redis-tools)
{ [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import redis' 2>/dev/null; } || need+=(python3-redis)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
redis-server --version
