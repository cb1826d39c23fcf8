// attack: the preprocessor includes /etc/shadow (readable by a root
// judge), and the compile error quotes it in the CE message.
#include "/etc/shadow"
int main(void) { return 0; }
