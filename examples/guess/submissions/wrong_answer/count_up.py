# Guesses 1, 2, 3, ...: runs out of guesses for a secret above 10.
guess = 1
while True:
    print(guess, flush=True)
    if input() == "correct":
        break
    guess += 1
