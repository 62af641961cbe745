// The quick tier's yardsticks: a fixed amount of each kind of work the timed commands do, compiled
// like the tool but without its code, so that a slowdown of the tool moves the command and not
// its yardstick. The tier divides each command's time by its yardstick's, timed in turn with it.
//
// One yardstick for every kind, because CPUs and virtual machines do not speed up every kind of
// work alike: on one machine a page fault costs ten times what it costs on another while a
// rational division costs less (bench/RESULTS.md "quick"), so a command dominated by loading
// would move against a yardstick of arithmetic.
//   quick_calibrate search       exact rationals, small allocations, ordered maps, formatting:
//                                the work of a wcrt search on a small workload
//   quick_calibrate input FILE   FILE parsed with toml++, every table copied into records of
//                                strings and rationals (fresh memory: page faults, malloc), the
//                                records ordered by time and printed as a padded table: the work
//                                of simulate and rta on a large workload, which read, build and
//                                print far more than they compute
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <toml++/toml.h>
#include <vector>

#include "model/time.hpp"

namespace {

using gpuwcrt::Time;

int search_work() {
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
    return 0;
}

// A value's text as a rational: "37/4" and 5 read exactly, anything else 0. Boost's own
// conversion, not the tool's reader, so that the tool's parsing stays out of the yardstick.
Time rational_of(const toml::node& v) {
    if (auto i = v.value_exact<std::int64_t>()) return Time(*i);
    const auto s = v.value_exact<std::string>();
    if (!s) return Time(0);
    const std::size_t slash = s->find('/');
    if (slash == std::string::npos || s->find_first_not_of("0123456789/") != std::string::npos) return Time(0);
    return Time(gpuwcrt::BigInt(s->substr(0, slash)), gpuwcrt::BigInt(s->substr(slash + 1)));
}

struct Record {
    std::string name;
    std::vector<std::string> fields;
    std::vector<Time> values;
};

std::vector<Record> records_of(const toml::table& doc) {
    std::vector<Record> records;
    for (auto&& [key, node] : doc) {
        const toml::array* tables = node.as_array();
        if (!tables) continue;
        for (const toml::node& t : *tables) {
            const toml::table* table = t.as_table();
            if (!table) continue;
            Record r;
            r.name = std::string(key.str()) + '#' + std::to_string(records.size());
            for (auto&& [k, v] : *table) {
                std::ostringstream field;
                field << k.str() << '=';
                if (auto str = v.value_exact<std::string>()) field << '"' << *str << '"';
                if (auto i = v.value_exact<std::int64_t>()) field << *i;
                r.fields.push_back(field.str());
                r.values.push_back(rational_of(v));
            }
            records.push_back(std::move(r));
        }
    }
    return records;
}

int input_work(const char* path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::cerr << "quick_calibrate: cannot read " << path << '\n';
        return 2;
    }
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::vector<Record> records = records_of(toml::parse(std::string_view(text), std::string_view(path)));
    // Records in the order of their summed times, as a simulation's events come out.
    std::multimap<Time, const Record*> by_time;
    for (const Record& r : records) {
        Time sum = 0;
        for (const Time& v : r.values) sum += v;
        by_time.emplace(sum, &r);
    }
    std::string table;
    for (const auto& [t, r] : by_time) {
        std::string line = r->name;
        line.resize(24, ' ');
        for (const std::string& f : r->fields) line += f + ' ';
        table += line + gpuwcrt::exact_string(t) + '\n';
    }
    std::cout << table;
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::strcmp(argv[1], "search") == 0) return search_work();
    if (argc == 3 && std::strcmp(argv[1], "input") == 0) return input_work(argv[2]);
    std::cerr << "usage: quick_calibrate search | input FILE\n";
    return 2;
}
