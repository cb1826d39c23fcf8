#import <objc/objc.h>
#include <stdio.h>

int main(void) {
    long long t, a, b;
    BOOL ok = YES;
    if (scanf("%lld", &t) != 1) return 0;
    while (ok && t-- > 0 && scanf("%lld %lld", &a, &b) == 2) printf("%lld\n", a + b);
    return 0;
}
