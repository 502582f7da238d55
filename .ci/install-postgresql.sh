#!/usr/bin/env bash
# Debian's PostgreSQL 15 server binaries (initdb, postgres, pg_ctl): the outbox tests start their own
# cluster with initdb in a temporary directory on a free loopback port. Idempotent: installs only when
# the binaries are missing. The package's own cluster service is not started (nothing listens on 5432).
set -euo pipefail
bin=/usr/lib/postgresql/15/bin
if [ ! -x "$bin/initdb" ] || [ ! -x "$bin/postgres" ]; then
  echo "installing: postgresql-15"
  apt-get update -qq
  # policy-rc.d 101: the package may not start its cluster service while it installs
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null
fi
"$bin/postgres" --version
