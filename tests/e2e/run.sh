#!/usr/bin/env bash
# Runs the browser tests of `kpsim serve` (serve.test.mjs) in Debian's headless Chromium through
# playwright-core. `make test` installs what they need (make e2e-deps: the chromium package, Node.js
# and npm if missing, `npm ci` here); without them this prints why and exits 77, which ctest
# reports as skipped.
#   tests/e2e/run.sh <path-to-kpsim>
set -u
KPSIM=${1:?usage: run.sh <path-to-kpsim>}
HERE=$(cd "$(dirname "$0")" && pwd)
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
skip() { echo "SKIPPED: $1 (make e2e-deps installs it)"; exit 77; }
[ -x "$CHROMIUM" ] || skip "no Chromium at $CHROMIUM"
command -v node >/dev/null || skip "no Node.js"
[ -d "$HERE/node_modules/playwright-core" ] || skip "playwright-core is not installed in tests/e2e"
cd "$HERE" && KPSIM="$KPSIM" CHROMIUM="$CHROMIUM" exec node --test serve.test.mjs
