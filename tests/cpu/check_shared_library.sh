#!/usr/bin/env bash
# libtilemm.so exports the C API (and nothing of C++) and does not link cuBLAS.
set -euo pipefail
lib="$1"
exports=$(nm -D --defined-only "$lib" | awk '{print $3}')
for sym in tilemmCreate tilemmDestroy tilemmSetStream tilemmGetStream tilemmSetAlgorithm \
           tilemmGetStatusString tilemmGetErrorDetail tilemmSgemm tilemmGemmEx \
           tilemmGemmStridedBatchedEx tilemmGetAlgorithmCount tilemmGetAlgorithmName; do
  grep -qx "$sym" <<<"$exports" || { echo "FAIL: $sym is not exported"; exit 1; }
done
cxx=$(grep -c '^_Z' <<<"$exports" || true)
if [[ "$cxx" -ne 0 ]]; then
  echo "FAIL: $cxx C++ symbols leak from the library:"; grep '^_Z' <<<"$exports" | head; exit 1
fi
if readelf -d "$lib" | grep NEEDED | grep -qi cublas; then
  echo "FAIL: libtilemm links cuBLAS"; readelf -d "$lib" | grep NEEDED; exit 1
fi
echo "OK: C API exported, no C++ symbols, needs: $(readelf -d "$lib" | grep NEEDED | sed 's/.*\[\(.*\)\]/\1/' | tr '\n' ' ')"
