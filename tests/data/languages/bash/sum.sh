read -r t
for ((i = 0; i < t; i++)); do
  read -r a b
  echo $((a + b))
done
