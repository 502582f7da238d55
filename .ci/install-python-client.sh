#!/usr/bin/env bash
# The Python producer library (clients/python), installed the way its README says, into the virtualenv
# that its unit tests and the interop tests (clients/interop) use: clients/python/.venv. Debian's Python
# with Debian's redis-py, and Debian's psycopg2 and psycopg 3 for the outbox helpers' tests (the library
# itself imports no database driver); the package's build backend needs only the standard library (no setuptools, no
# wheel), and PyPI is not reachable, so nothing is downloaded (--no-build-isolation --no-index). Idempotent;
# re-installs the package so that it carries core's current Lua scripts (the interop tests fail on a stale build).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for pkg in python3-redis python3-venv python3-psycopg2 python3-psycopg; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

venv=clients/python/.venv
[ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv --system-site-packages "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-build-isolation --no-index --no-deps --force-reinstall ./clients/python
"$venv/bin/python" -c 'import delayq, delayq.scripts as s, redis, psycopg2, psycopg; print("python client:", delayq.__version__, "with", len(s.SCRIPTS), "scripts, redis-py", redis.__version__, "psycopg2", psycopg2.__version__.split()[0], "psycopg", psycopg.__version__)'
