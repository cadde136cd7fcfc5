#!/usr/bin/env bash
# Installs the built tilemm into a temporary prefix, then configures, builds and runs a
# consumer project that finds it with find_package(tilemm) and links tilemm::tilemm.
set -euo pipefail
build_dir="$1"; consumer_src="$2"; work="$3"
rm -rf "$work"; mkdir -p "$work"
cmake --install "$build_dir" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$consumer_src" -B "$work/consumer-build" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_BUILD_TYPE=Release > "$work/configure.log"
cmake --build "$work/consumer-build" > "$work/build.log"
LD_LIBRARY_PATH="$work/prefix/lib:${LD_LIBRARY_PATH:-}" "$work/consumer-build/consumer"
