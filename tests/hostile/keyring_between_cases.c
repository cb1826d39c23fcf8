// attack: keep a key in the kernel keyring of the slot's user: keys are
// kept per user, and the slot's user is the same from one case to the
// next (and for the next judge that gets the same uid block), so a key
// added by case 1 is a channel to every later case.
// setup: serial (three cases, one worker)
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>
#define KEY_SPEC_USER_KEYRING -4
#define KEYCTL_SEARCH 10
int main(void) {
    // A key name per test run would let an old key pass as a new one:
    // the key is looked for in the user's keyring, where it outlives us.
    long found = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user",
                         "judge-hostile-key", 0);
    if (found < 0)
        syscall(SYS_add_key, "user", "judge-hostile-key", "case 1 was here", 15,
                KEY_SPEC_USER_KEYRING);
    int n, a, b;
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++)
        if (scanf("%d %d", &a, &b) == 2) printf("%d\n", found >= 0 ? a + b : 0);
    return 0;
}
