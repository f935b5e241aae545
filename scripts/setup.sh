#!/bin/sh
# `npm run setup`: installs Keel's dependencies, builds it and links the `keel` command, saying
# what it does at each step. Run through scripts/node22.sh, so Node 22 is on PATH.
set -eu
cd "$(dirname "$0")/.."

step() { printf 'keel setup: %s\n' "$*" >&2; }

step "node $(node --version), npm $(npm --version)"

# `npm ci` installs exactly the lock file, but npm 11 refuses a lock file that lacks other
# platforms' optional packages (biome's per-OS binaries, which the registry may not carry).
# `npm install` installs the same locked versions and fills in only what this platform needs.
step "installing dependencies (npm install, versions from package-lock.json)"
npm install --no-audit --no-fund --loglevel=error

step "building (tsc + the CLI bundle)"
npm run --silent build

step "linking the keel command (npm link)"
if npm link --no-audit --no-fund --loglevel=error >/dev/null 2>&1; then
  step "done: $(command -v keel || echo "keel is in $(npm prefix -g)/bin, which is not on PATH")"
else
  step "npm link failed (no write access to $(npm prefix -g)?); run Keel as $(pwd)/bin/keel.js, or run"
  step "  npm config set prefix ~/.local && npm link   (and put ~/.local/bin on PATH)"
  exit 1
fi
