/* Rotation Game (UVA 1343): iterative deepening A* with the classic
 * heuristic (8 - the most frequent digit in the centre), moves tried
 * A..H, so the first solution found is the lexicographically smallest. */
#include <stdio.h>

static const int line[8][7] = {
    {0, 2, 6, 11, 15, 20, 22},   {1, 3, 8, 12, 17, 21, 23},
    {10, 9, 8, 7, 6, 5, 4},     {19, 18, 17, 16, 15, 14, 13},
    {23, 21, 17, 12, 8, 3, 1},   {22, 20, 15, 11, 6, 2, 0},
    {13, 14, 15, 16, 17, 18, 19}, {4, 5, 6, 7, 8, 9, 10}};
static const int centre[8] = {6, 7, 8, 11, 12, 15, 16, 17};
static const int opposite[8] = {5, 4, 7, 6, 1, 0, 3, 2};
static int q[24], path[64], depth;

static int estimate(void) {
    int count[4] = {0, 0, 0, 0}, most = 0;
    for (int i = 0; i < 8; i++) count[q[centre[i]]]++;
    for (int d = 1; d <= 3; d++) if (count[d] > most) most = count[d];
    return 8 - most;
}

static void rotate(int m) {
    int first = q[line[m][0]];
    for (int i = 0; i < 6; i++) q[line[m][i]] = q[line[m][i + 1]];
    q[line[m][6]] = first;
}

static int search(int done, int last) {
    int h = estimate();
    if (done + h > depth) return 0;
    if (h == 0) return 1;
    for (int m = 0; m < 8; m++) {
        if (last >= 0 && opposite[m] == last) continue;
        rotate(m);
        path[done] = m;
        if (search(done + 1, m)) return 1;
        rotate(opposite[m]);
    }
    return 0;
}

int main(void) {
    while (scanf("%d", &q[0]) == 1 && q[0] != 0) {
        for (int i = 1; i < 24; i++) scanf("%d", &q[i]);
        for (depth = 0; !search(0, -1); depth++) {}
        if (depth == 0) printf("No moves needed\n");
        else {
            for (int i = 0; i < depth; i++) putchar('A' + path[i]);
            putchar('\n');
        }
        printf("%d\n", q[centre[0]]);
    }
    return 0;
}
