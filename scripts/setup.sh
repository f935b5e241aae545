#!/bin/sh
# `npm run setup`: installs Keel's dependencies, builds it and links the `keel` command, saying
# what it does at each step. Run through scripts/node22.sh, so Node 22 is on PATH.
set -eu
cd "$(dirname "$0")/.."

step() { printf 'keel setup: %s\n' "$*" >&2; }

step "node $(node --version), npm $(npm --version)"

# The locked versions, and the lock file left as it is (--no-save): package-lock.json lists every
# platform's optional packages (biome's per-OS binaries), so nothing is missing from it, and a
# user's npm settings (resolved URLs or not) cannot rewrite it. The checkout stays clean.
step "installing dependencies (npm install --no-save, versions from package-lock.json)"
npm install --no-save --no-audit --no-fund --loglevel=error

step "building (tsc + the CLI bundle)"
npm run --silent build

# A `keel` already on PATH that is another checkout's (or an installed package) is re-pointed
# here by npm link: say so, naming both, so the user knows which Keel `keel` now runs.
here=$(pwd -P)
previous=""
if existing=$(command -v keel 2>/dev/null); then
  target=$(readlink -f "$existing" 2>/dev/null || echo "$existing")
  case "$target" in
    "$here"/*) ;;
    *) previous="$target" ;;
  esac
fi

step "linking the keel command (npm link --no-save)"
if npm link --no-save --no-audit --no-fund --loglevel=error >/dev/null 2>&1; then
  if [ -n "$previous" ]; then
    step "note: keel ran $previous; it now runs this checkout ($here/bin/keel.js)"
  fi
  step "done: $(command -v keel || echo "keel is in $(npm prefix -g)/bin, which is not on PATH")"
else
  step "npm link failed (no write access to $(npm prefix -g)?); run Keel as $(pwd)/bin/keel.js, or run"
  step "  npm config set prefix ~/.local && npm link   (and put ~/.local/bin on PATH)"
  exit 1
fi
