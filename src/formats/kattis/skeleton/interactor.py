# The interactor (an output validator of an interactive problem, Kattis
# protocol): interactor.py INPUT ANSWER FEEDBACK_DIR; what it prints goes
# to the submission, what the submission prints comes on its standard
# input. Exit 42 to accept, 43 to reject; say why in judgemessage.txt.
import sys

input_file, answer_file, feedback_dir = sys.argv[1:4]


def reject(message):
    with open(feedback_dir + "/judgemessage.txt", "w") as f:
        f.write(message + "\n")
    sys.exit(43)


a, b = map(int, open(input_file).read().split())
print(a, b, flush=True)
line = sys.stdin.readline()
try:
    got = int(line)
except ValueError:
    reject(f"expected an integer, got {line.strip()[:20]!r}")
if got != a + b:
    reject(f"expected {a + b}, got {got}")
if sys.stdin.read().strip():
    reject("more output after the answer")
sys.exit(42)
