# Pass 1 (a word): say 21. Pass 2 (a number): say twice it.
word = input().strip()
print(2 * int(word) if word.lstrip("-").isdigit() else 21)
