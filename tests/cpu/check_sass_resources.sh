#!/usr/bin/env bash
# Fails when any kernel in the library uses local memory (register spills or arrays the
# compiler could not keep in registers) or a stack frame; prints the resource table.
set -euo pipefail
lib="$1"
cuobjdump="${CUOBJDUMP:-cuobjdump}"
usage=$("$cuobjdump" --dump-resource-usage "$lib")
kernels=$(grep -c "Function" <<<"$usage" || true)
if [[ "$kernels" -eq 0 ]]; then
  echo "FAIL: cuobjdump found no kernels in $lib"; exit 1
fi
bad=$(grep -B1 -E "STACK:[1-9]|LOCAL:[1-9]" <<<"$usage" || true)
if [[ -n "$bad" ]]; then
  echo "FAIL: kernels with a stack frame or local memory:"; echo "$bad"; exit 1
fi
# The build covers Ampere (sm_80) and Hopper (sm_90a) machine code.
elfs=$("$cuobjdump" --list-elf "$lib")
for arch in sm_80 sm_90a; do
  grep -q "$arch" <<<"$elfs" || { echo "FAIL: no $arch machine code in $lib"; exit 1; }
done
hopper=$(grep -c sm_90a <<<"$elfs" || true)
# Hopper kernels (wgmma) must really contain HGMMA in their sm_90a code.
if grep -q "wgmma" <<<"$("$cuobjdump" --dump-resource-usage "$lib" | grep Function || true)"; then
  if ! "$cuobjdump" --gpu-architecture sm_90a --dump-sass "$lib" | grep -q HGMMA; then
    echo "FAIL: wgmma kernels present but no HGMMA instruction in the sm_90a code"; exit 1
  fi
fi
echo "OK: $kernels kernel entries (sm_90a images: $hopper), none with local memory or stack"
