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
# Counts the kernels whose name matches $2 in the $1 code, and how many of them contain
# the instruction $3: "total with".
count_with_instruction() {
  "$cuobjdump" --gpu-architecture "$1" --dump-sass "$lib" | awk -v name="$2" -v instr="$3" '
    /Function : / { in_family = ($0 ~ name); if (in_family) { total++; seen[total] = 0 } next }
    in_family && $0 ~ instr { seen[total] = 1 }
    END { with = 0; for (i = 1; i <= total; i++) with += seen[i]; print total + 0, with + 0 }'
}
# Every tensor-core kernel must really run on the tensor cores: each mma_sync kernel
# contains HMMA in its sm_80 and its sm_90a code, each wgmma and wgmma_rs kernel HGMMA in
# its sm_90a code (its sm_80 image is empty: wgmma exists only on sm_90a). The fp32
# tma_ffma kernels must be fed by the TMA (UTMALDG) in their sm_90a code.
summary=""
check_family() {  # arch, kernel-name pattern, instruction, family label
  local total with
  read -r total with <<<"$(count_with_instruction "$1" "$2" "$3")"
  if [[ "$total" -eq 0 ]]; then
    echo "FAIL: no $4 kernels in the $1 code of $lib"; exit 1
  fi
  if [[ "$with" -ne "$total" ]]; then
    echo "FAIL: $((total - with)) of $total $4 kernels have no $3 instruction in their $1 code"; exit 1
  fi
  summary+=" $1: $total $4 kernels, all with $3;"
}
check_family sm_80 mma_sync_gemm HMMA mma_sync
check_family sm_90a mma_sync_gemm HMMA mma_sync
check_family sm_90a wgmma_gemm HGMMA wgmma
check_family sm_90a wgmma_rs_gemm HGMMA wgmma_rs
check_family sm_90a tma_ffma_gemm UTMALDG tma_ffma
echo "OK: $kernels kernel entries (sm_90a images: $hopper), none with local memory or stack;$summary"
