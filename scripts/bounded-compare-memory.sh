#!/usr/bin/env bash
# The judge's own peak memory when a submission prints a huge output
# (BENCHMARKS.md, issue 37): one case (input `1 2`, answer `3`) and three
# compiled submissions that each print SIZE bytes (default 1 GiB):
#   newlines  SIZE newlines
#   oneline   one line of SIZE 'a's, no newline
#   random    SIZE pseudo-random bytes (xorshift64*, so the run is not
#             CPU-bound on /dev/urandom)
# each judged with an output limit above SIZE under every text comparison:
# exact, lines, tokens (the default) and tokens with a float tolerance;
# then under the default comparison and the default output limit (64 MiB).
# One row per (output, comparison): verdict, wall seconds, the judge's own
# peak RSS, and GNU time's %M for comparison.
#   scripts/bounded-compare-memory.sh [SIZE_MIB=1024] [BOUND_MIB=64]
#
# How the judge's own peak is measured. GNU time's %M is NOT it: time gets
# it from wait4(2), whose rusage for the reaped child is RUSAGE_BOTH — the
# child's own ru_maxrss and the largest ru_maxrss of every descendant the
# child (transitively) reaped. The judge reaps the submissions, their
# launchers and any checker, so %M is the largest of all of those; it is an
# upper bound on the judge's peak, not the peak. (Check:
# `/usr/bin/time -f %M sh -c 'python3 -c "x=bytearray(300<<20)"; true'`
# prints about 320,000 KiB for a shell of 1.6 MiB.) The same holds for
# `run_measured` in tests/common/mod.rs (wait4's ru_maxrss).
# The judge's own peak is its mm's high-water mark, VmHWM in
# /proc/PID/status (threads share it; children have their own). It is read
# at the judge's exit, from inside the judge: a small LD_PRELOAD library
# (hwm.so below; GNU time loads it too and is told apart by /proc/self/exe)
# notes the judge's pid in a constructor and, in a destructor
# (run by exit(3), which is how a Rust main returns and how
# std::process::exit ends), writes the judge's VmHWM to $HWM_REPORT. The
# constructor takes HWM_REPORT and LD_PRELOAD out of the environment before
# main, so no child (submission, launcher, compiler) loads it or reports;
# a child forked without exec has another pid and is skipped. Should the
# judge end without exit(3) (a signal, _exit), the script falls back to
# VmHWM polled from outside every 0.1 s (marked ~: a lower bound that
# misses at most the last 0.1 s).
set -euo pipefail
cd "$(dirname "$0")/.."
size_mib=${1:-1024}
bound_mib=${2:-64}
if [ ! -x /usr/bin/time ]; then
  echo "/usr/bin/time (GNU time) is missing: apt-get install -y time" >&2
  exit 2
fi
CARGO_PROFILE_RELEASE_INCREMENTAL=${CARGO_PROFILE_RELEASE_INCREMENTAL:-true} \
  cargo build --release -q
judge=$PWD/target/release/judge
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
cd "$work"

cat > hwm.c <<'EOF'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static pid_t armed;
static char report[4096];
__attribute__((constructor)) static void arm(void) {
  const char *p = getenv("HWM_REPORT"), *exe = getenv("HWM_EXE");
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (!p || !exe || n <= 0 || strlen(p) >= sizeof report) return;
  self[n] = 0;
  if (strcmp(self, exe) != 0) return; /* GNU time, not the judge: pass it on */
  strcpy(report, p);
  armed = getpid();
  unsetenv("HWM_REPORT");
  unsetenv("HWM_EXE");
  unsetenv("LD_PRELOAD");
}
__attribute__((destructor)) static void done(void) {
  if (!armed || getpid() != armed) return;
  char buf[8192];
  int fd = open("/proc/self/status", O_RDONLY);
  if (fd < 0) return;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return;
  buf[n] = 0;
  char *hwm = strstr(buf, "VmHWM:");
  if (!hwm) return;
  long kib = strtol(hwm + 6, NULL, 10);
  FILE *f = fopen(report, "w");
  if (f) { fprintf(f, "%ld\n", kib); fclose(f); }
}
EOF
cc -O2 -shared -fPIC -o hwm.so hwm.c

# Each writes SIZE bytes in 1 MiB blocks.
gen() { # NAME FILL-STATEMENT
  printf '%s\n' '#include <stdlib.h>' '#include <string.h>' '#include <unistd.h>' \
    'static unsigned char b[1 << 20];' \
    'static void put(size_t n) { size_t d = 0; while (d < n) { ssize_t w = write(1, b + d, n - d); if (w <= 0) exit(1); d += w; } }' \
    'int main(int c, char **v) { unsigned long long x = 88172645463325252ULL; (void)x; long long left = atoll(v[1]) << 20;' \
    "  $2" \
    '  while (left > 0) { size_t n = left < (long long)sizeof b ? (size_t)left : sizeof b;' \
    "    $3" \
    '    put(n); left -= n; } return 0; }' > "$1.c"
  cc -O2 -o "$1" "$1.c"
}
gen newlines 'memset(b, 10, sizeof b);' ';'
gen oneline "memset(b, 'a', sizeof b);" ';'
gen random ';' 'for (size_t i = 0; i < sizeof b; i += 8) { x ^= x >> 12; x ^= x << 25; x ^= x >> 27; unsigned long long r = x * 2685821657736338717ULL; memcpy(b + i, &r, 8); }'
chmod 755 newlines oneline random

mkdir -p cases/big
echo '1 2' > cases/big/1.in
echo '3' > cases/big/1.ans
chmod -R a+rX cases

limit=$(( size_mib * 2 ))MiB
echo "$(date -u +%Y-%m-%d), nproc $(nproc), $(uname -r): $size_mib MiB outputs, --output-limit $limit, -j 1, --no-cache"
echo
printf '| output | comparison | output limit | verdict | wall | judge peak RSS | GNU time %%M (judge and its children) |\n'
printf '|---|---|---|---|---|---|---|\n'
over=()
for shape in newlines oneline random; do
  # Every comparison with the output limit above SIZE, then the default
  # comparison under the default output limit (64 MiB) as a control.
  for comparison in exact lines tokens tokens+float tokens@default; do
    case $comparison in
      tokens@default) check=(); label="tokens (default)"; lim=() ; shown="default (64 MiB)" ;;
      *) lim=(--output-limit "$limit"); shown=$limit ;;
    esac
    case $comparison in
      tokens@default) ;;
      tokens) check=() ; label="tokens (default)" ;;
      tokens+float) check=(--check tokens --float-tolerance 1e-6); label="tokens, --float-tolerance 1e-6" ;;
      *) check=(--check "$comparison"); label=$comparison ;;
    esac
    rm -f hwm.out time.out report.json
    HWM_REPORT=$work/hwm.out HWM_EXE=$(readlink -f "$judge") LD_PRELOAD=$work/hwm.so \
      /usr/bin/time -o time.out -f '%e %M' \
      "$judge" run cases/big --problem big --submission "$work/$shape $size_mib" \
      "${lim[@]}" --time-limit 60s --wall-limit 300s -j 1 --no-cache \
      "${check[@]}" --format json --report report.json -q > run.out 2>&1 &
    tpid=$!
    polled=0
    while kill -0 "$tpid" 2>/dev/null; do
      for jpid in $(cat /proc/"$tpid"/task/*/children 2>/dev/null); do
        h=$(awk '/^VmHWM:/ {print $2}' /proc/"$jpid"/status 2>/dev/null || true)
        if [ -n "$h" ] && [ "$h" -gt "$polled" ]; then polled=$h; fi
      done
      sleep 0.1
    done
    wait "$tpid" || true
    read -r wall tree_kib < <(tail -n 1 time.out)
    verdict=$(grep -o '"verdict": *"[A-Z]*"' report.json 2>/dev/null | head -n 1 | grep -o '[A-Z][A-Z]*' || echo '?')
    if [ -s hwm.out ]; then
      kib=$(cat hwm.out); peak=$(awk -v k="$kib" 'BEGIN {printf "%.1f MiB", k / 1024}')
    else
      kib=$polled; peak=$(awk -v k="$kib" 'BEGIN {printf "~%.1f MiB", k / 1024}')
    fi
    [ -z "${HWM_DEBUG:-}" ] || echo "($shape/$comparison: VmHWM at exit ${kib} KiB, polled ${polled} KiB)" >&2
    tree=$(awk -v k="$tree_kib" 'BEGIN {printf "%.1f MiB", k / 1024}')
    if [ "$kib" -gt $(( bound_mib * 1024 )) ]; then
      peak="**$peak**"; over+=("$shape/$comparison")
    fi
    printf '| %s | %s | %s | %s | %s s | %s | %s |\n' "$shape" "$label" "$shown" "$verdict" "$wall" "$peak" "$tree"
  done
done
echo
if [ ${#over[@]} -gt 0 ]; then
  echo "over the $bound_mib MiB bound: ${over[*]}"
else
  echo "every run within the $bound_mib MiB bound"
fi
