[t | rest] =
  IO.read(:stdio, :eof)
  |> String.split()
  |> Enum.map(&String.to_integer/1)

rest
|> Enum.take(2 * t)
|> Enum.chunk_every(2)
|> Enum.each(fn [a, b] -> IO.puts(a + b) end)
