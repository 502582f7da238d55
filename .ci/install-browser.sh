#!/usr/bin/env bash
# Debian's chromium and chromedriver for the console's browser tests (console/…/browser). Idempotent:
# does nothing when both are installed. Never downloads a browser from anywhere but Debian.
set -euo pipefail
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  exit 0
fi
echo "installing: chromium chromium-driver" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
/usr/bin/chromium --version >&2
