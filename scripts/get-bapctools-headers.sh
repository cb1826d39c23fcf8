#!/usr/bin/env bash
# Fetch BAPCtools' shared validator headers (validation.h, …) from its
# wheel on the package index, for packages whose validators link to them
# (`input_validators/x/validation.h -> ../../…/bapctools/resources/headers/
# validation.h`, a link into a BAPCtools checkout). The judge reads such a
# link's header from this directory (docs/packages.md, "Links").
#
#   scripts/get-bapctools-headers.sh [DIR]
#
# DIR: $JUDGE_BAPCTOOLS_HEADERS, else ~/.cache/judge/bapctools-headers.
# Needs python3 with pip. The headers are BAPCtools' (GPL-3.0): they are
# fetched to this machine, never committed to this repository.
set -euo pipefail
dir="${1:-${JUDGE_BAPCTOOLS_HEADERS:-$HOME/.cache/judge/bapctools-headers}}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$work" bapctools
wheel="$(ls "$work"/bapctools-*.whl | head -n 1)"
python3 - "$wheel" "$work/headers" <<'PY'
import sys, zipfile, pathlib
wheel, out = sys.argv[1], pathlib.Path(sys.argv[2])
prefix = "bapctools/resources/headers/"
out.mkdir(parents=True)
found = 0
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        rest = name[len(prefix):] if name.startswith(prefix) else ""
        if rest and "/" not in rest and ".." not in rest:
            (out / rest).write_bytes(z.read(name))
            found += 1
if not found:
    sys.exit(f"{wheel}: no {prefix}* in the wheel")
PY
mkdir -p "$dir"
cp "$work"/headers/* "$dir"/
echo "BAPCtools headers in $dir: $(ls "$work/headers" | tr '\n' ' ')"
