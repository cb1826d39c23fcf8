/* A testlib-protocol checker for A+B, in plain C (no testlib.h needed):
 *   checker INPUT OUTPUT ANSWER
 * exit 0 AC, 1 WA, 2 PE (presentation: right numbers, wrong layout),
 * 3 judge failure; a one-line message on stderr.
 * The numbers decide WA; the layout (one number a line, no spaces, no
 * carriage returns, no blank lines) decides PE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) { cap *= 2; buf = realloc(buf, cap + 1); }
    }
    fclose(f);
    if (!buf) return NULL;
    buf[n] = 0;
    *len = n;
    return buf;
}

/* The next white-space separated token at *p: its start and length. */
static int token(const char **p, const char *end, const char **start, size_t *len) {
    while (*p < end && isspace((unsigned char)**p)) (*p)++;
    if (*p >= end) return 0;
    *start = *p;
    while (*p < end && !isspace((unsigned char)**p)) (*p)++;
    *len = (size_t)(*p - *start);
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: checker INPUT OUTPUT ANSWER\n"); return 3; }
    size_t out_len = 0, ans_len = 0;
    char *out = slurp(argv[2], &out_len), *ans = slurp(argv[3], &ans_len);
    if (!out || !ans) { fprintf(stderr, "cannot read the output or the answer\n"); return 3; }
    const char *o = out, *a = ans, *oe = out + out_len, *ae = ans + ans_len;
    const char *ot, *at;
    size_t ol, al;
    int count = 0;
    for (;;) {
        int has_o = token(&o, oe, &ot, &ol), has_a = token(&a, ae, &at, &al);
        if (!has_a && !has_o) break;
        count++;
        if (!has_o) { fprintf(stderr, "sum %d missing: the output ends early\n", count); return 1; }
        if (!has_a) { fprintf(stderr, "extra output after %d sums: \"%.20s\"\n", count - 1, ot); return 1; }
        if (ol != al || memcmp(ot, at, ol) != 0) {
            fprintf(stderr, "sum %d: expected %.*s, found %.*s\n", count, (int)(al > 30 ? 30 : al), at, (int)(ol > 30 ? 30 : ol), ot);
            return 1;
        }
    }
    /* The numbers are right: now the layout, one number a line. */
    int line = 1;
    for (const char *p = out; p < oe; p++) {
        if (*p == '\n') { line++; continue; }
        if (*p == '\r') { fprintf(stderr, "line %d: a carriage return (use \\n line endings)\n", line); return 2; }
        if (*p == ' ' || *p == '\t') { fprintf(stderr, "line %d: white space inside a line (one sum a line)\n", line); return 2; }
    }
    if (strstr(out, "\n\n") || (out_len > 0 && out[0] == '\n')) { fprintf(stderr, "a blank line in the output\n"); return 2; }
    fprintf(stderr, "%d sums\n", count);
    return 0;
}
