main :: IO ()
main = do
  input <- getContents
  let (t : rest) = map read (words input) :: [Integer]
  mapM_ print (pairs t rest)
  where
    pairs 0 _ = []
    pairs n (a : b : xs) = (a + b) : pairs (n - 1) xs
    pairs _ _ = []
