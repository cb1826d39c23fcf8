import strutils

let t = stdin.readLine.strip.parseInt
for i in 0 ..< t:
  let p = stdin.readLine.splitWhitespace
  echo parseBiggestInt(p[0]) + parseBiggestInt(p[1])
