#!/usr/bin/env bash
# Fetch the real testlib.h (MikeMirzayanov/testlib) for the Polygon tests.
#
# GitHub may be out of reach; the package index is not: the `rbx.cp` wheel
# (rbx, a problem-setting tool) carries testlib.h as a resource at
# rbx/resources/predownloaded/testlib.h. This downloads that wheel with
# `pip download --no-deps` into a temporary directory and copies the header
# out. Nothing is installed and nothing is written into the repository.
#
#   scripts/get-testlib.sh [DEST]      # DEST defaults to
#                                      # ${XDG_CACHE_HOME:-~/.cache}/judge/testlib.h
#
# tests/polygon_real_testlib.rs reads $JUDGE_TESTLIB_H, or that default path.
# Exit status: 0 when DEST holds a testlib.h afterwards, 1 otherwise.
set -euo pipefail

dest="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/judge/testlib.h}"
version="${RBX_VERSION:-}"   # e.g. RBX_VERSION=0.13.0 to pin; empty = newest
member="rbx/resources/predownloaded/testlib.h"

py="$(command -v python3 || command -v python || true)"
if [ -z "$py" ]; then
  echo "get-testlib: no python3 to run pip" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

spec="rbx.cp${version:+==$version}"
if ! "$py" -m pip download --quiet --no-deps --only-binary=:all: \
     --dest "$work" "$spec" >"$work/pip.log" 2>&1; then
  echo "get-testlib: pip download $spec failed:" >&2
  tail -n 5 "$work/pip.log" >&2
  exit 1
fi

wheel="$(ls "$work"/*.whl 2>/dev/null | head -n 1)"
if [ -z "$wheel" ]; then
  echo "get-testlib: pip left no wheel in $work" >&2
  exit 1
fi

# A wheel is a zip; python's zipfile reads it without an unzip binary.
mkdir -p "$(dirname "$dest")"
"$py" - "$wheel" "$member" "$dest.part" <<'PY'
import sys, zipfile
wheel, member, out = sys.argv[1:4]
with zipfile.ZipFile(wheel) as z:
    try:
        data = z.read(member)
    except KeyError:
        sys.exit(f"get-testlib: {wheel} has no {member}")
if b"registerTestlibCmd" not in data:
    sys.exit(f"get-testlib: {member} in {wheel} does not look like testlib.h")
with open(out, "wb") as f:
    f.write(data)
PY
mv "$dest.part" "$dest"
echo "get-testlib: $(grep -m1 '#define VERSION' "$dest" | cut -d'"' -f2) -> $dest"
