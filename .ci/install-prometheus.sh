#!/usr/bin/env bash
# Puts Debian's promtool and prometheus binaries into a folder without installing the package:
# `apt-get download` + `dpkg-deb -x` skips the full install's dependencies (~330 MB of web assets).
# Idempotent: does nothing when both binaries already run. Prints the two paths, as
#   PROMETHEUS_BIN=/opt/delayq-tools/prometheus/usr/bin/prometheus
#   PROMTOOL_BIN=/opt/delayq-tools/prometheus/usr/bin/promtool
# The helm module's tests find them there (or through the PROMETHEUS_BIN / PROMTOOL_BIN env vars).
#
# Usage: .ci/install-prometheus.sh [DIR]   (DIR defaults to $DELAYQ_PROMETHEUS_DIR or /opt/delayq-tools/prometheus)
set -euo pipefail

dir="${1:-${DELAYQ_PROMETHEUS_DIR:-/opt/delayq-tools/prometheus}}"
prometheus="$dir/usr/bin/prometheus"
promtool="$dir/usr/bin/promtool"

runs() { [ -x "$1" ] && "$1" --version >/dev/null 2>&1; }

if ! runs "$prometheus" || ! runs "$promtool"; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  # A fresh machine may have no package lists yet; refresh only when the download cannot find the package.
  # Everything but the two result lines goes to stderr: callers `eval` this script's output.
  if ! (cd "$work" && apt-get download -qq prometheus >&2 2>/dev/null); then
    apt-get update -qq >&2
    (cd "$work" && apt-get download -qq prometheus >&2)
  fi
  mkdir -p "$dir"
  dpkg-deb -x "$work"/prometheus_*.deb "$dir" >&2
  runs "$prometheus" || { echo "extracted $prometheus does not run" >&2; exit 1; }
  runs "$promtool" || { echo "extracted $promtool does not run" >&2; exit 1; }
fi

echo "PROMETHEUS_BIN=$prometheus"
echo "PROMTOOL_BIN=$promtool"
