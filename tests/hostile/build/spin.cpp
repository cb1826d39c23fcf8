// attack: a compile that never ends (a constant expression the compiler
// evaluates for hours), to hold the judge. Each loop stays under g++'s
// per-loop iteration limit (262144); together they pass its operation
// limit (2^33) only after minutes.
constexpr unsigned long long spin() {
    unsigned long long s = 0;
    for (unsigned long long i = 0; i < 200000; i++) {
        for (unsigned long long j = 0; j < 200000; j++) {
            s += j ^ (s >> 3);
        }
        s ^= i;
    }
    return s;
}
constexpr unsigned long long value = spin();
int main() { return (int)value; }
