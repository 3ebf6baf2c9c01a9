#!/usr/bin/env bash
# Configures (once) and builds one build directory: build.sh DIR [meson options...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1; shift
if [ ! -f "$dir/build.ninja" ]; then
  meson setup "$dir" "$@" >/dev/null
fi
ninja -C "$dir" >/dev/null
