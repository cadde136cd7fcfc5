# Shared by the scripts: makes sure the build tools exist on this machine.
# Debian packages via apt-get; CMake, cuobjdump and nvdisasm (which cuobjdump runs for
# --dump-sass) via pip into .tools/ (the system CMake 3.25 does not know nvcc 13's C++20
# flag; neither tool is in the Debian image).

debian_packages=(build-essential libgtest-dev libcli11-dev nlohmann-json3-dev python3-venv)

ensure_toolchain() {
  local missing=()
  for p in "${debian_packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "installing Debian packages: ${missing[*]}"
    local sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}" >/dev/null
  fi

  if [[ ! -x .tools/bin/cmake || ! -d .tools/nvidia || ! -x .tools/nvidia/bin/nvdisasm ]]; then
    echo "installing CMake, cuobjdump and nvdisasm into .tools/"
    python3 -m venv .tools/venv
    .tools/venv/bin/pip install -q --disable-pip-version-check \
      "cmake==3.31.6" "nvidia-cuda-cuobjdump==13.2.51" "nvidia-cuda-nvdisasm==13.2.51"
    mkdir -p .tools/bin
    ln -sf "$PWD/.tools/venv/bin/cmake" .tools/bin/cmake
    ln -sf "$PWD/.tools/venv/bin/ctest" .tools/bin/ctest
    ln -sfn "$(.tools/venv/bin/python -c 'import nvidia, os; print(os.path.join(nvidia.__path__[0], "cu13"))')" .tools/nvidia
  fi
  export PATH="$PWD/.tools/bin:$PATH"
  export TILEMM_CUOBJDUMP="$PWD/.tools/nvidia/bin/cuobjdump"

  if ! command -v nvcc >/dev/null 2>&1; then
    if [[ -x /usr/local/cuda/bin/nvcc ]]; then
      export PATH="$PATH:/usr/local/cuda/bin"
    else
      echo "error: nvcc (CUDA 13 toolkit) not found" >&2
      return 1
    fi
  fi
}
