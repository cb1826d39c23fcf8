#!/usr/bin/env bash
# Regenerate docs/report.png, the README's picture of the HTML report: build
# the judge, judge a small demo tree (a sum problem and Rotation Game cases)
# with a submission that earns a different verdict on each case, write the
# report with --report, and photograph it with headless Chromium.
#
# Installs nothing: without Chromium it says how to get it and stops.
# The demo tree and its report stay in target/report-demo/ for a look.
#
#   scripts/report-screenshot.sh [OUT.png]     (default docs/report.png)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-docs/report.png}
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
    echo "report-screenshot: no Chromium at $chromium." >&2
    echo "Install it (Debian): apt-get install -y chromium   (or set CHROMIUM=/path/to/chromium)" >&2
    exit 2
fi

cargo build --release --quiet
judge=$root/target/release/judge
demo=$root/target/report-demo
rm -rf "$demo"
mkdir -p "$demo/cases/sum" "$demo/cases/rotation"

# sum: T, then T pairs; one sum a line. The case's name says what the
# submission will do with it (it tells them apart by their pairs).
pair() { printf '1\n%s %s\n' "$2" "$3" >"$demo/cases/sum/$1.in"; echo $(($2 + $3)) >"$demo/cases/sum/$1.ans"; }
pair 01-small 1 2
pair 02-negative -5 5
pair 03-carry 999 1
pair 04-big 123456789 987654321
pair 05-hostile 3 4
pair 06-loop 2 2
pair 07-crash 8 9
pair 08-flood 6 6
pair 09-slowish 10 20
for i in 10 11 12 13 14 15 16; do pair "$i-random" "$i" "$((i * 7))"; done
for name in sample len05 len08 len10 len12 len13; do
    cp "cases/rotation/$name.in" "cases/rotation/$name.ans" "$demo/cases/rotation/"
done

cat >"$demo/judge.toml" <<'TOML'
time_limit = "1s"
memory_limit = "256MiB"

[problem.rotation]
puzzle = "rotation"
lexmin = true
time_limit = "2s"

[problem.sum]
check = "tokens"
output_limit = "1MiB"
TOML

# The submission: right on most cases, wrong in a different way on some.
# It decides by the input's content, whatever way its input is given.
cat >"$demo/submission.sh" <<SH
#!/bin/sh
input=\$(cat)
case "\$input" in
    "1 1 1 1 3 2 3 2 "*) printf 'ACDF\n2\nDDHH\n2\n'; exit ;;
    "3 1 2 3 1 1 2 2 "*) printf '%s\n' "\$input" | "$judge" solve rotation | sed '1s/.*/AAAAAAAAAAAA/'; exit ;;
    [1-3]" "*) printf '%s\n' "\$input" | "$judge" solve rotation; exit ;;
esac
set -- \$(printf '%s\n' "\$input" | sed -n 2p)
case "\$1 \$2" in
    "999 1") echo 1001 ;;
    "3 4") echo '<script>alert(1)</script> "><img src=x onerror=alert(2)>' ;;
    "2 2") while :; do :; done ;;
    "8 9") echo "reading pairs..." >&2; echo "panic: index 2 out of range [0, 2)" >&2; exit 3 ;;
    "6 6") yes 12 | head -c 3000000 ;;
    "10 20") awk 'BEGIN { for (i = 0; i < 30000000; i++) s += i }'; echo 30 ;;
    *) echo \$((\$1 + \$2)) ;;
esac
SH
chmod +x "$demo/submission.sh"

status=0
(cd "$demo" && "$judge" run --submission ./submission.sh -j 2 --report report.html) || status=$?
if [ "$status" -ne 1 ]; then
    echo "report-screenshot: the demo run exited $status (1 was expected: some cases fail)" >&2
    exit 1
fi

mkdir -p "$(dirname "$out")"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
    --user-data-dir="$profile" --window-size=1280,1800 \
    --screenshot="$root/$out" "file://$demo/report.html" 2>/dev/null
echo "wrote $out (from $demo/report.html)"
