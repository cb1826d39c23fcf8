local t = io.read("n")
for _ = 1, t do
  local a, b = io.read("n", "n")
  print(a + b)
end
