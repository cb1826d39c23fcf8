#include <iostream>
int main() {
    long long t, a, b;
    std::cin >> t;
    while (t-- > 0 && std::cin >> a >> b) std::cout << a + b << "\n";
}
