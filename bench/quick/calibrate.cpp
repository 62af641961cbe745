// The quick tier's yardstick: a fixed amount of the kind of work the plain commands do (exact
// rationals, small allocations, ordered maps, formatting), compiled like the tool. The tier
// compares each command's time with this program's, timed in the same run, so that a slower or
// busier machine moves both and only a slowdown of the tool moves the ratio.
#include <iostream>
#include <map>
#include <string>

#include "model/time.hpp"

int main() {
    using gpuwcrt::Time;
    std::map<Time, int> by_time;
    Time sum = 0;
    std::size_t chars = 0;
    for (int round = 0; round < 2; ++round) {
        by_time.clear();
        for (int i = 1; i <= 30'000; ++i) {
            const Time t = gpuwcrt::time_fraction(i * 37 % 9973 + round, 1 + i % 64);
            sum += t;
            by_time.emplace(t, i);
            chars += gpuwcrt::exact_string(t).size();
        }
    }
    // Printed so that no part of the work can be optimised away.
    std::cout << by_time.size() << ' ' << chars << ' ' << gpuwcrt::exact_string(sum).size() << '\n';
}
