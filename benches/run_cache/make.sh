#!/bin/sh
# Writes the run cache's benchmark package (BENCHMARKS.md "Run cache"):
# `sumsq`, 10 cases, a Python output validator (Kattis protocol) and 20
# submissions in C, Python and shell. Usage: sh make.sh DIR
set -eu
out=${1:?usage: sh make.sh DIR}
mkdir -p "$out/data/sample" "$out/data/secret" "$out/output_validator" \
  "$out/submissions/accepted" "$out/submissions/wrong_answer" "$out/submissions/run_time_error"
cat > "$out/problem.yaml" <<'Y'
problem_format_version: 2023-07-draft
name: Sum of squares
type: pass-fail
limits:
  time_limit: 1
Y
# Cases: N, then N numbers; the answer is the sum of their squares.
i=0
for n in 1 5 10 100 1000 5000 10000 20000 40000 50000; do
  i=$((i + 1))
  dir=secret; [ "$i" -le 1 ] && dir=sample
  awk -v n="$n" -v seed="$i" 'BEGIN { srand(seed); print n; s = 0;
    for (k = 0; k < n; k++) { x = int(rand() * 1000); printf "%d%s", x, (k + 1 < n ? " " : "\n"); s += x * x }
    printf "%.0f\n", s > "/dev/stderr" }' > "$out/data/$dir/$i.in" 2> "$out/data/$dir/$i.ans"
done
cat > "$out/output_validator/validate.py" <<'P'
import sys
answer = open(sys.argv[2]).read().split()
output = sys.stdin.read().split()
if output == answer:
    sys.exit(42)
print(f"expected {answer}, found {output[:3]}", file=open(sys.argv[3] + "judgemessage.txt", "w"))
sys.exit(43)
P
c_ok='#include <stdio.h>
int main(void) { long long n, x, s = 0; if (scanf("%lld", &n) != 1) return 1;
  for (long long i = 0; i < n; i++) { scanf("%lld", &x); s += x * x; } printf("%lld\n", s); return 0; }'
for k in 1 2 3 4 5 6; do
  printf '/* variant %s */\n%s\n' "$k" "$c_ok" > "$out/submissions/accepted/c$k.c"
done
for k in 1 2 3 4; do
  printf '# variant %s\nimport sys\nd = sys.stdin.read().split()\nprint(sum(int(x) ** 2 for x in d[1:]))\n' "$k" \
    > "$out/submissions/accepted/py$k.py"
done
for k in 1 2; do
  printf '#!/bin/sh\n# variant %s\nread n\ntr " " "\\n" | awk "{ s += \\$1 * \\$1 } END { printf \"%%.0f\\\\n\", s }"\n' "$k" \
    > "$out/submissions/accepted/sh$k.sh"
done
for k in 1 2 3; do
  printf '/* variant %s */\n#include <stdio.h>\nint main(void) { long long n, x, s = 0; scanf("%%lld", &n);\n  for (long long i = 0; i < n; i++) { scanf("%%lld", &x); s += x; } printf("%%lld\\n", s); return 0; }\n' "$k" \
    > "$out/submissions/wrong_answer/sum$k.c"
done
for k in 1 2 3; do
  printf '# variant %s\nimport sys\nd = sys.stdin.read().split()\nprint(sum(int(x) ** 3 for x in d[1:]))\n' "$k" \
    > "$out/submissions/wrong_answer/cubes$k.py"
done
for k in 1 2; do
  printf '# variant %s\nimport sys\nd = sys.stdin.read().split()\nprint(1 // (len(d) - len(d)))\n' "$k" \
    > "$out/submissions/run_time_error/div$k.py"
done
