// The progress line of wcrt and certify (app/phase_progress.hpp): a line when a count or a bound
// in it moves, and the same line again only after Progress::unchanged_every, so that a run whose
// counters stand still says it is alive every few seconds instead of every second.
#include <catch2/catch.hpp>

#include <chrono>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>

#include "app/phase_progress.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// What Progress wrote to std::cerr while `during` ran.
template <class F>
std::string cerr_of(F during) {
    std::ostringstream captured;
    std::streambuf* old = std::cerr.rdbuf(captured.rdbuf());
    during();
    std::cerr.rdbuf(old);
    return captured.str();
}

}  // namespace

TEST_CASE("the progress line: a line when a count moves, the same line again only after 5 s",
          "[progress-line][progress][slow]") {
    using namespace std::chrono;
    static_assert(app::Progress::unchanged_every == seconds(5));
    const Budget budget;
    budget.counters().start_phase("search");
    budget.counters().states = 7;
    const auto t0 = steady_clock::now();
    const std::string err = cerr_of([&] {
        app::Progress progress("test");
        progress.watch(budget);
        std::this_thread::sleep_until(t0 + milliseconds(2500));  // two ticks past the first line
        budget.counters().states = 8;
        // The line of 8 states at the next tick, then after 5 s unchanged, once more.
        std::this_thread::sleep_until(t0 + milliseconds(10500));
    });
    INFO(err);
    CHECK(test::occurrences(err, "] search, 7 states\n") == 1);
    CHECK(test::occurrences(err, "] search, 8 states\n") == 2);
    CHECK(test::occurrences(err, "\n") == 3);
}
