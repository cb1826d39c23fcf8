# The output validator (a custom checker, Kattis protocol):
#   checker.py INPUT ANSWER FEEDBACK_DIR < team_output
# Exit 42 to accept, 43 to reject; say why in FEEDBACK_DIR/judgemessage.txt.
# This one accepts the sum in any white space; write your problem's rules.
import sys

input_file, answer_file, feedback_dir = sys.argv[1:4]


def reject(message):
    with open(feedback_dir + "/judgemessage.txt", "w") as f:
        f.write(message + "\n")
    sys.exit(43)


expected = int(open(answer_file).read())
words = sys.stdin.read().split()
if len(words) != 1:
    reject(f"expected one integer, got {len(words)} words")
try:
    got = int(words[0])
except ValueError:
    reject(f"expected an integer, got {words[0][:20]!r}")
if got != expected:
    reject(f"expected {expected}, got {got}")
sys.exit(42)
