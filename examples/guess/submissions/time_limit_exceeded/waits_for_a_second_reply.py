# Guesses once and waits for two replies: the validator waits for the next
# guess, so both wait until the wall clock ends it.
import sys
print(500, flush=True)
sys.stdin.readline()
sys.stdin.readline()
