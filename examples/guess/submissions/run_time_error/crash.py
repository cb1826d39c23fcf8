# Guesses once, then fails on the reply.
print(500, flush=True)
reply = int(input())
