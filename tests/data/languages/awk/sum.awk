NR == 1 { t = $1; next }
NR <= t + 1 { print $1 + $2 }
