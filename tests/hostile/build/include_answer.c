// attack: the preprocessor includes the hidden answer file, and the
// compile error quotes its first token in the CE message.
#include "@ANSWER@"
int main(void) { return 0; }
