#!/usr/bin/env bash
# On a GPU machine: what docs/patches/README.md asks of a-edge-boxes-and-clusters-of-four.patch
# before it lands, most important first, the summary last.
#
# Usage: docs/patches/a-edge-boxes-and-clusters-of-four.device.sh BINS [STEPS]
#   BINS   a folder holding bench_main and bench_patch (tilemm-bench built from main and from main
#          with the patch), tilemm_gpu_tests and tilemm-probe-sm-placement (both with the patch)
#   STEPS  any of "clusters tests sanitizers timing" (default all). Each step has a time limit:
#          clusters and tests at most 7 minutes, sanitizers and timing at most 10, so within
#          calls of 600 s run "clusters tests" in one and "sanitizers timing" in the next.
# Logs go to $OUT (when set) or build/patch-check.
set -uo pipefail
cd "$(dirname "$0")/../.."
[[ $# -ge 1 && -d "$1" ]] || { sed -n '5,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
bins=$(cd "$1" && pwd)
steps="${2:-clusters tests sanitizers timing}"
out="${OUT:-build/patch-check}"
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
declare -a rows
status=0
note() { rows+=("$1"); }

# The entries whose A boxes the patch changes (A stored k x m, m off the tile), one per box shape.
P='Registered/Kernels.CorrectOnTheTestPlan'
entries=(wgmma_bf16_192x64x64_s6_persistent_c2_tmastore_pingpong_bf16
         wgmma_fp16_192x64x64_s6_persistent_c4_tmastore_pingpong_fp16
         wgmma_bf16_128x128x64_s6_persistent_c4_tmastore_bf16
         wgmma_bf16_32x64x64_s18_persistent_c4_pingpong_swapab_bf16
         wgmma_bf16_64x128x64_s8_persistent_c2m_tmastore_bf16
         wgmma_tf32_256x128x32_s4_persistent_c2_tmastore_tf32
         wgmma_bf16_64x128x64_s8_persistent_splitk_bf16
         wgmma_bf16_256x128x64_s4_bf16
         wgmma_fp16_256x128x64_s4_persistent_c2_tmastore_repack_fp16
         wgmma_bf16_64x64x64_s12_persistent_tmastore_pingpong_bf16)
filter=$(printf "$P/%s:" "${entries[@]}")

if [[ " $steps " == *" clusters "* ]]; then
  # The patch's DeviceInfo::clusters_of_four asks the same occupancy calculator.
  "$bins/tilemm-probe-sm-placement" > "$out/sm_placement.txt" 2>&1
  note "clusters: $(grep -E '^# clusters of 4:' "$out/sm_placement.txt") ($(head -1 "$out/sm_placement.txt"))"
fi
if [[ " $steps " == *" tests "* ]]; then
  TILEMM_BIN_DIR="$bins" TILEMM_CHECK_STEPS=tests TILEMM_TEST_FILTER="${filter}$P/auto_*" \
    timeout 300 scripts/device-check > "$out/tests.log" 2>&1 || status=1
  note "test plans: $(grep -E '^gpu-tests' "$out/tests.log")"
  TILEMM_TEST_SMALL=1 timeout 120 "$bins/tilemm_gpu_tests" --gtest_filter="$P/wgmma*" > "$out/small.log" 2>&1 ||
    status=1
  note "small plan of every wgmma entry: $(grep -E '^\[  (PASSED|FAILED)  \]' "$out/small.log" | tr '\n' ' ')"
fi
if [[ " $steps " == *" sanitizers "* ]]; then
  TILEMM_BIN_DIR="$bins" TILEMM_CHECK_STEPS=sanitizers TILEMM_TEST_FILTER="${filter%:}" \
    timeout 300 scripts/device-check > "$out/sanitizers.log" 2>&1 || status=1
  while read -r line; do note "$line"; done < <(grep -E '^sanitizer-' "$out/sanitizers.log")
fi
if [[ " $steps " == *" timing "* ]]; then
  # The 192 x 64 pair and clusters of four, the 64 x 128 tile and the 192-row stream-K tile.
  w=wgmma.bf16
  kernels="auto,$w.192x64x64.s6.persistent.c2.tmastore.pingpong,$w.192x64x64.s6.persistent.c4.tmastore.pingpong"
  kernels="$kernels,$w.64x128x64.s8.persistent.tmastore,$w.192x128x64.s5.persistent.c2.tmastore.streamk"
  timeout 300 scripts/bench-ab --out "$out/bench-ab" "$bins/bench_main" "$bins/bench_patch" -- \
    --budget 0.03 --interleave --verify cublas --cooldown-ms 2 --dtype bf16 --trans NN,TN,TT \
    --m 136,144,160,176 --n 6144,7680,8192 --k 4096,6000,8192 --kernel "$kernels" > "$out/timing.txt" 2>&1 ||
    status=1
  note "timing: main / patch per kernel and layout in $out/timing.txt (table below)"
fi

echo
echo "== a-edge-boxes-and-clusters-of-four: patch checks =="
[[ -f "$out/timing.txt" && " $steps " == *" timing "* ]] && tail -30 "$out/timing.txt"
printf '%s\n' "${rows[@]}"
echo "result: $([[ $status -eq 0 ]] && echo PASS || echo FAIL)"
exit $status
