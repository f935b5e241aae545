#!/usr/bin/env bash
# Refuses force pushes. Reads the hook payload (JSON) on stdin; exit 2 blocks with stderr as the reason.
cmd=$(jq -r '.tool_input.command // ""')
case "$cmd" in
  *--force*|*" -f"*) echo "force pushes are not allowed in this project" >&2; exit 2 ;;
esac
exit 0
