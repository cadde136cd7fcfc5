#!/usr/bin/env bash
# Fails when any kernel in the library uses local memory (register spills or arrays the
# compiler could not keep in registers) or a stack frame; prints the resource table.
set -euo pipefail
lib="$1"
cuobjdump="${CUOBJDUMP:-cuobjdump}"
# --dump-sass runs nvdisasm, installed beside cuobjdump (toolkit or scripts/test's .tools/).
if [[ "$cuobjdump" == */* ]]; then
  export PATH="$(dirname "$cuobjdump"):$PATH"
fi
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
# The mma_sync (tensor-core) kernels must really run on the tensor cores: every one of
# them contains HMMA in both its sm_80 and its sm_90a code.
mma_summary=""
for arch in sm_80 sm_90a; do
  counts=$("$cuobjdump" --gpu-architecture "$arch" --dump-sass "$lib" | awk '
    /Function : / { in_mma = ($0 ~ /mma_sync_gemm/); if (in_mma) { total++; seen[total] = 0 } next }
    in_mma && /HMMA/ { seen[total] = 1 }
    END { with = 0; for (i = 1; i <= total; i++) with += seen[i]; print total + 0, with + 0 }')
  read -r total with_hmma <<<"$counts"
  if [[ "$total" -eq 0 ]]; then
    echo "FAIL: no mma_sync kernels in the $arch code of $lib"; exit 1
  fi
  if [[ "$with_hmma" -ne "$total" ]]; then
    echo "FAIL: $((total - with_hmma)) of $total mma_sync kernels have no HMMA instruction in their $arch code"; exit 1
  fi
  mma_summary+=" $arch: $total mma_sync kernels, all with HMMA;"
done
echo "OK: $kernels kernel entries (sm_90a images: $hopper), none with local memory or stack;$mma_summary"
