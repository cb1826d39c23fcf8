// attack: a compile that never ends (a constant expression the compiler
// evaluates for hours), to hold the judge.
constexpr unsigned long long spin() {
    unsigned long long s = 0;
    for (unsigned long long i = 0; i < (1ULL << 40); i++) {
        s += i ^ (s >> 3);
        if (i % 200000 == 0) s ^= 1;
    }
    return s;
}
constexpr unsigned long long value = spin();
int main() { return (int)value; }
