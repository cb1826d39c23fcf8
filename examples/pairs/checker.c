/* The pairs checker, in testlib's protocol (checker INPUT OUTPUT ANSWER):
 * exit 0 AC, 1 WA, 2 PE, 3 the checker failed, and testlib's partial
 * credit: quitp(x, msg) exits 7 with "points x msg" on standard error,
 * which judge reads as x of the case's points (0 to 1).
 *
 * Full credit: the right largest sum and two positions i < j that make it.
 * Half credit: the right sum with positions that do not make it. */
#include <stdio.h>
#include <stdlib.h>

static void quit(int code, const char *what, const char *msg) {
    fprintf(stderr, "%s%s\n", what, msg);
    exit(code);
}

int main(int argc, char **argv) {
    if (argc < 4) quit(3, "fail ", "usage: checker INPUT OUTPUT ANSWER");
    FILE *in = fopen(argv[1], "r"), *out = fopen(argv[2], "r"), *ans = fopen(argv[3], "r");
    if (!in || !out || !ans) quit(3, "fail ", "cannot open a file");
    long n;
    if (fscanf(in, "%ld", &n) != 1 || n < 2) quit(3, "fail ", "bad input");
    long long *a = malloc(sizeof *a * (size_t)n);
    if (!a) quit(3, "fail ", "out of memory");
    for (long k = 0; k < n; k++)
        if (fscanf(in, "%lld", &a[k]) != 1) quit(3, "fail ", "bad input");
    long long best, sum;
    if (fscanf(ans, "%lld", &best) != 1) quit(3, "fail ", "bad answer");
    if (fscanf(out, "%lld", &sum) != 1) quit(1, "wrong answer ", "no sum");
    if (sum != best) {
        fprintf(stderr, "wrong answer expected sum %lld, found %lld\n", best, sum);
        return 1;
    }
    long i, j;
    if (fscanf(out, "%ld %ld", &i, &j) != 2 || i < 1 || j <= i || j > n
            || a[i - 1] + a[j - 1] != sum)
        quit(7, "points 0.5 ", "the sum is right, the positions do not make it");
    char extra;
    if (fscanf(out, " %c", &extra) == 1) quit(2, "wrong output format ", "extra output");
    quit(0, "ok ", "the largest sum at two positions");
}
