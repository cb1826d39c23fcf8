// attack: the assembler embeds the hidden answer file in the program at
// compile time (`.incbin`), and the program prints it: AC without solving
// when the compiler runs as the judge, outside the namespaces.
#include <stdio.h>
asm(".section .rodata\n.global hidden\nhidden:\n.incbin \"@ANSWER@\"\n.byte 0\n.text\n");
extern char hidden[];
int main(void) {
    fputs(hidden, stdout);
    return 0;
}
