#!/bin/bash
# Paired A/B comparison of two judge builds against the physical floor
# (BENCHMARKS.md, "sixth pass"). Run in a directory holding ./floor
# (benches/floor/floor.c compiled), ./ab (the A+B program) and
# cases/ab/{1..1000}.{in,ans}:
#
#   abba.sh ROUNDS ./judge-a ./judge-b [judge run options...]   # e.g. abba.sh 15 ./a ./b -j 2
#
# Each round runs the floor, A, B, B, A and the floor again (A and B in
# both orders, so a drift of the machine within the round falls on both
# alike); each build's round ratio is its two runs' mean over the round's
# mean floor. Prints each build's median ratio and every round's ratio,
# and in how many rounds B beat A.

R=$1; A=$2; B=$3; shift 3
t() { local s=$(date +%s.%N); "$@" >/dev/null 2>&1; local e=$(date +%s.%N); echo "$e - $s" | bc; }
ra=(); rb=(); wins=0
for r in $(seq 1 "$R"); do
  f1=$(t ./floor ./ab cases/ab 1000)
  a1=$(t "$A" run cases/ab --problem ab --check tokens --submission ./ab -q "$@")
  b1=$(t "$B" run cases/ab --problem ab --check tokens --submission ./ab -q "$@")
  b2=$(t "$B" run cases/ab --problem ab --check tokens --submission ./ab -q "$@")
  a2=$(t "$A" run cases/ab --problem ab --check tokens --submission ./ab -q "$@")
  f2=$(t ./floor ./ab cases/ab 1000)
  f=$(echo "scale=4; ($f1 + $f2) / 2" | bc)
  x=$(echo "scale=4; ($a1 + $a2) / 2 / $f" | bc)
  y=$(echo "scale=4; ($b1 + $b2) / 2 / $f" | bc)
  ra+=("$x"); rb+=("$y")
  if [ "$(echo "$y < $x" | bc)" = 1 ]; then wins=$((wins + 1)); fi
done
med() { printf "%s\n" "$@" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
echo "A $(basename "$A"): median ratio $(med "${ra[@]}")  [${ra[*]}]"
echo "B $(basename "$B"): median ratio $(med "${rb[@]}")  [${rb[*]}]"
echo "B faster in $wins of $R rounds"
