#!/bin/sh
# Runs a command with Node.js >= 22.12 first on PATH. When the machine's `node` is older (or
# missing), Node 22 is installed once from npm into a cache folder (the `node` package ships the
# official binaries) and reused; bin/keel.js finds the same folder, so a `keel` linked by an old
# Node still starts.
#
#   sh scripts/node22.sh COMMAND [ARGS...]
#
# KEEL_NODE_CACHE overrides the folder (default ${XDG_CACHE_HOME:-$HOME/.cache}/keel-node).
set -eu

cache="${KEEL_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/keel-node}"

# Prints "yes" when the node at $1 is 22.12 or newer.
recent_enough() {
  "$1" -e 'const [a,b]=process.versions.node.split(".").map(Number);process.stdout.write(a>22||(a===22&&b>=12)?"yes":"no")' 2>/dev/null || true
}

if command -v node >/dev/null 2>&1 && [ "$(recent_enough node)" = yes ]; then
  :
elif [ -x "$cache/node_modules/.bin/node" ] && [ "$(recent_enough "$cache/node_modules/.bin/node")" = yes ]; then
  PATH="$cache/node_modules/.bin:$PATH"
else
  have=$(node --version 2>/dev/null || echo "no node")
  echo "keel setup: Node.js 22.12 or newer is needed (this machine has $have); installing node@22 into $cache" >&2
  if ! command -v npm >/dev/null 2>&1; then
    echo "keel setup: npm is not installed; install Node.js 22 from https://nodejs.org and run this again" >&2
    exit 1
  fi
  mkdir -p "$cache"
  npm install --no-save --no-audit --no-fund --loglevel=error --prefix "$cache" node@22 >&2
  if [ "$(recent_enough "$cache/node_modules/.bin/node")" != yes ]; then
    echo "keel setup: installing node@22 into $cache did not give a working Node 22" >&2
    exit 1
  fi
  PATH="$cache/node_modules/.bin:$PATH"
fi
export PATH
exec "$@"
