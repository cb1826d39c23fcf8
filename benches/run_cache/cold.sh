#!/bin/bash
# The run cache's cost on a cold run (BENCHMARKS.md "Run cache"): judge
# run of many one-line cases with --no-cache (A) against a cold cache (B,
# a new empty cache directory under CACHE_BASE each run, so ext4 or tmpfs
# is chosen by where CACHE_BASE is). Each round runs A, B, B, A (a drift
# of the machine within a round falls on both alike); prints per-round
# ratios B/A of wall time and of CPU time (user + system of the judge and
# everything it waited for), and their medians.
#
#   cold.sh ROUNDS JUDGE CASES SUBMISSION CACHE_BASE [judge run options...]
#   e.g. cold.sh 9 ./judge /work/bench/cases/ab /work/bench/ab /dev/shm/jc -j 2
set -eu
R=$1; J=$2; C=$3; S=$4; BASE=$5; shift 5
mkdir -p "$BASE"
one() { # one timed run: "wall cpu"
  local dir=$1; shift
  /usr/bin/time -f "%e %U %S" -o "$BASE/t" env JUDGE_CACHE_DIR="$dir" \
    "$J" run "$C" --problem ab --check tokens --submission "$S" -q "$@" >/dev/null 2>&1 || true
  awk '{printf "%s %.3f\n", $1, $2 + $3}' "$BASE/t"
}
nc=$BASE/nocache; mkdir -p "$nc"
wall=(); cpu=()
for r in $(seq 1 "$R"); do
  a1=$(one "$nc" --no-cache "$@")
  d1=$(mktemp -d -p "$BASE"); b1=$(one "$d1" "$@")
  d2=$(mktemp -d -p "$BASE"); b2=$(one "$d2" "$@")
  a2=$(one "$nc" --no-cache "$@")
  rm -rf "$d1" "$d2"
  read -r aw1 ac1 <<<"$a1"; read -r aw2 ac2 <<<"$a2"
  read -r bw1 bc1 <<<"$b1"; read -r bw2 bc2 <<<"$b2"
  w=$(echo "scale=4; ($bw1 + $bw2) / ($aw1 + $aw2)" | bc)
  c=$(echo "scale=4; ($bc1 + $bc2) / ($ac1 + $ac2)" | bc)
  wall+=("$w"); cpu+=("$c")
  echo "round $r: no-cache $aw1 $aw2 s (cpu $ac1 $ac2), cold $bw1 $bw2 s (cpu $bc1 $bc2): wall x$w cpu x$c"
done
med() { printf "%s\n" "$@" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
echo "median cold/no-cache: wall x$(med "${wall[@]}")  cpu x$(med "${cpu[@]}")  over $R rounds"
