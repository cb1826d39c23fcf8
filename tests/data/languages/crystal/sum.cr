t = gets.not_nil!.to_i
t.times do
  a, b = gets.not_nil!.split.map(&.to_i64)
  puts a + b
end
