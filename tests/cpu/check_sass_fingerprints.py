#!/usr/bin/env python3
"""Fails when the machine code of a kernel changed without its fingerprint being renewed.

Every speed in docs/ is a measurement of one compiled kernel, and ptxas schedules a loop
its own way for every instantiation: a source change that leaves a kernel's loop alone can
still move its SASS and its speed (docs/ladder.md, step 13: -3% to +5% in one layout from
edits outside the k-loop). This test hashes the SASS of every kernel in the library, per
architecture, and compares the hashes with tests/cpu/sass_fingerprints.txt, so a change
that alters any kernel's machine code says which kernels to measure again.

    check_sass_fingerprints.py LIB FINGERPRINTS COMPILER_VERSION BUILD_TYPE [--update]

With --update the file is rewritten from LIB (after re-measuring what changed). The
fingerprints belong to one compiler version and build type; a build with another one
cannot be compared and the test reports itself skipped (exit code 77).
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys

SKIPPED = 77
ADDRESS = re.compile(r"/\*[0-9a-fx]+\*/")
ENCODING = re.compile(r"^/\* 0x[0-9a-f]+ \*/$")
BLANKS = re.compile(r"\s+")
# The header cuobjdump prints before the next fatbin element ("Fatbin elf code:" and a rule
# of "="), which lands in the block of whichever kernel comes last in the element before it:
# not that kernel's code, and it moves when a registration change reorders the kernels.
FATBIN_HEADER = re.compile(r"^(Fatbin \w+ code:|=+)$")
# A kernel in an anonymous namespace carries hashes of its file's path in its symbol
# (_GLOBAL__N__0ec0dde4_17_split_k_reduce_cu_81c95d21...): the same in every build of one
# checkout, different in another one. They are masked (same length, so the symbol still
# demangles).
ANONYMOUS_NAMESPACE = re.compile(r"(_GLOBAL__N__)[0-9a-f]{8}(_\d+_\w+?_cu_)[0-9a-f]{8}")


def kernel_hashes(lib):
    """{(arch, kernel): hash of its SASS}, from cuobjdump --dump-sass."""
    cuobjdump = os.environ.get("CUOBJDUMP", "cuobjdump")
    env = dict(os.environ)
    if os.sep in cuobjdump:  # --dump-sass runs nvdisasm, installed beside cuobjdump
        env["PATH"] = os.path.dirname(cuobjdump) + os.pathsep + env.get("PATH", "")
    proc = subprocess.Popen([cuobjdump, "--dump-sass", lib], stdout=subprocess.PIPE, text=True, env=env)
    hashes, arch, name, digest = {}, None, None, None

    def close():
        if name is not None:
            hashes[(arch, name)] = digest.hexdigest()[:16]

    for raw in proc.stdout:
        line = raw.strip()
        if line.startswith("arch = "):
            close()
            arch, name = line.split("=", 1)[1].strip(), None
        elif line.startswith("Function : "):
            close()
            name = ANONYMOUS_NAMESPACE.sub(r"\1xxxxxxxx\2xxxxxxxx", line[len("Function : "):])
            digest = hashlib.sha256()
        elif name is not None:
            # Runs of blanks collapsed: cuobjdump pads each instruction to the widest one in its
            # ELF, so adding a kernel to a file would otherwise change every other kernel's text.
            text = BLANKS.sub(" ", ADDRESS.sub("", line)).strip()
            if text and not ENCODING.match(text) and not FATBIN_HEADER.match(text):
                digest.update(text.encode())
                digest.update(b"\n")
    close()
    if proc.wait() != 0 or not hashes:
        sys.exit(f"FAIL: cuobjdump --dump-sass {lib} found no kernels")
    return hashes


def readable(name):
    """The kernel's C++ name where c++filt is at hand, else the symbol."""
    if shutil.which("c++filt") is None:
        return name
    return subprocess.run(["c++filt", name], capture_output=True, text=True).stdout.strip() or name


def main():
    args = [a for a in sys.argv[1:] if a != "--update"]
    update = "--update" in sys.argv[1:]
    if len(args) != 4:
        sys.exit(__doc__)
    lib, path, compiler, build_type = args
    header = f"# compiler {compiler}, build type {build_type}"
    hashes = kernel_hashes(lib)
    if update:
        with open(path, "w") as f:
            f.write("# SASS fingerprints of every kernel in libtilemm (tests/cpu/check_sass_fingerprints.py).\n")
            f.write(header + "\n")
            for (arch, name), h in sorted(hashes.items()):
                f.write(f"{arch} {h} {name}\n")
        print(f"wrote {len(hashes)} fingerprints to {path}")
        return 0
    with open(path) as f:
        lines = f.read().splitlines()
    recorded_header = next((l for l in lines if l.startswith("# compiler ")), "")
    if recorded_header != header:
        print(f"SKIP: fingerprints recorded for '{recorded_header[2:]}', this build is '{header[2:]}'")
        return SKIPPED
    recorded = {}
    for line in lines:
        if line and not line.startswith("#"):
            arch, h, name = line.split(" ", 2)
            recorded[(arch, name)] = h
    changed = sorted(k for k in hashes if k in recorded and hashes[k] != recorded[k])
    added = sorted(k for k in hashes if k not in recorded)
    removed = sorted(k for k in recorded if k not in hashes)
    if not (changed or added or removed):
        print(f"OK: {len(hashes)} kernels, machine code as fingerprinted")
        return 0
    print(f"FAIL: the machine code differs from tests/cpu/sass_fingerprints.txt: {len(changed)} changed, "
          f"{len(added)} new, {len(removed)} gone (kernels per architecture).")
    for title, keys in (("changed", changed), ("new", added), ("gone", removed)):
        for arch, name in keys[:40]:
            print(f"  {title}: {arch} {readable(name)}")
        if len(keys) > 40:
            print(f"  ... and {len(keys) - 40} more {title}")
    print("Measure the changed kernels again (their speeds in docs/ may no longer hold), then renew the file:\n"
          f"  python3 tests/cpu/check_sass_fingerprints.py {lib} {path} '{compiler}' {build_type} --update")
    return 1


if __name__ == "__main__":
    sys.exit(main())
