#!/usr/bin/env bash
# The Node.js producer library (clients/node): its dependencies from the npm registry (package-lock.json;
# the devDependencies include node-postgres, `pg`, for the outbox helpers' tests) and its build step (npm's `prepare` assembles core's Lua scripts into lib/scripts.json), for its unit
# tests and the interop tests (clients/interop). Idempotent; the build step runs every time so that the
# library carries core's current scripts.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "installing: nodejs npm"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi

# the package's engines.node (ioredis 6's floor); Debian 12's own nodejs is 18, below it
need=$(node -p 'require("./clients/node/package.json").engines.node.match(/\d+/)[0]')
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt "$need" ]; then
  echo "node $(node --version) is older than the Node.js client needs (engines: node >=$need, ioredis 6's floor):" \
    "install Node.js $need or later (Debian 13's nodejs, or NodeSource's packages on Debian 12)" >&2
  exit 1
fi

cd clients/node
if [ ! -d node_modules/ioredis ] || [ ! -d node_modules/pg ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
else
  npm run --silent prepare
fi

# and installed as a user installs it (README: npm install --install-links ./clients/node), into a project of
# its own that the interop tests drive: they test the package npm made, not this folder
mkdir -p .consumer
[ -f .consumer/package.json ] || echo '{"name": "delayq-consumer", "private": true}' > .consumer/package.json
rm -rf .consumer/node_modules/delayq  # npm keeps a copy of the same version: install the current build
(cd .consumer && npm install --no-audit --no-fund --loglevel=error --no-save --install-links ..)
echo "node client: node $(node --version), $(node -e 'console.log(Object.keys(require("./.consumer/node_modules/delayq").scripts).length)') scripts"
