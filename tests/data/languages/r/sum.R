con <- file("stdin")
l <- readLines(con)
close(con)
t <- as.integer(l[1])
for (i in seq_len(t)) {
  p <- as.numeric(strsplit(trimws(l[i + 1]), "\\s+")[[1]])
  cat(format(p[1] + p[2], scientific = FALSE), "\n", sep = "")
}
