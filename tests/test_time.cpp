// Exact time: parsing, printing, and TOML literals read without passing through a double.
#include <catch2/catch.hpp>

#include "model/time.hpp"
#include "support.hpp"

using namespace gpuwcrt;

TEST_CASE("parse_time reads integers, decimals, fractions and exponents exactly", "[time]") {
    CHECK(parse_time("1.5") == Time(3, 2));
    CHECK(parse_time("0.1") == Time(1, 10));
    CHECK(parse_time("3/2") == Time(3, 2));
    CHECK(parse_time("1_000") == Time(1000));
    CHECK(parse_time("2.5e-3") == Time(1, 400));
    CHECK(parse_time("2.5E2") == Time(250));
    CHECK(parse_time("-1") == Time(-1));
    CHECK(parse_time("0.3/0.4") == Time(3, 4));
    CHECK(parse_time("4") == Time(4));
}

TEST_CASE("parse_time: leading zeros are decimal, not an octal prefix", "[time]") {
    // cpp_int reads "065" as octal; 0.65 once became 53/100 and 0.8 threw.
    CHECK(parse_time("0.65") == Time(13, 20));
    CHECK(parse_time("0.8") == Time(4, 5));
    CHECK(parse_time("0.09") == Time(9, 100));
    CHECK(parse_time("007") == Time(7));
    CHECK(parse_time("0") == Time(0));
    CHECK(parse_time("0.0") == Time(0));
}

TEST_CASE("parse_time rejects what is not an exact number", "[time]") {
    for (const char* bad : {"1/0", "abc", "1..2", "", "1e", "1.2.3", "/2", "3/", "1.5x", "e5", "--1"}) {
        INFO("text: '" << bad << "'");
        CHECK_FALSE(parse_time(bad).has_value());
    }
}

TEST_CASE("exact_string and human_string", "[time]") {
    CHECK(exact_string(Time(3, 2)) == "3/2");
    CHECK(exact_string(Time(4)) == "4");
    CHECK(exact_string(Time(-1, 3)) == "-1/3");
    CHECK(human_string(Time(3, 2)) == "1.5");
    CHECK(human_string(Time(1, 8)) == "0.125");
    CHECK(human_string(Time(-1, 20)) == "-0.05");
    CHECK(human_string(Time(1, 3)) == "1/3");
    CHECK(human_string(Time(7)) == "7");
}

TEST_CASE("TOML float literals are read exactly from the source text", "[time][toml]") {
    const Workload w = test::workload_from(R"(
[[kernel]]
name = "a"
blocks = 1
threads = 32
block_time = 0.1
issue = 0.65

[[kernel]]
name = "b"
blocks = 1
threads = 32
block_time = 2.5e-3
issue = "7/3"

[[kernel]]
name = "c"
blocks = 1
threads = 32
block_time = [0.3, "1/3"]
issue = 1_000
)");
    CHECK(w.ops[0].time.hi == Time(1, 10));
    CHECK(w.ops[0].issue.at.lo == Time(13, 20));
    CHECK(w.ops[1].time.lo == Time(1, 400));
    CHECK(w.ops[1].issue.at.lo == Time(7, 3));
    CHECK(w.ops[2].time.lo == Time(3, 10));
    CHECK(w.ops[2].time.hi == Time(1, 3));
    CHECK(w.ops[2].issue.at.lo == Time(1000));
}
