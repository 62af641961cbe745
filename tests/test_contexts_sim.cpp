// The simulator under time slices (docs/theory/semantics.md §10, rules T1-T4): the hand-derived
// round-robin case's slices, and properties over seeded random sliced workloads — each context
// runs as it would alone in its own time axis, work is conserved, the engine never idles while
// a context is pending, slices and switches never overlap.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <map>

#include "report/json.hpp"
#include "sim/contexts/block_pieces.hpp"
#include "sim/simulate.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

// A random kernel-only workload with its streams dealt to `contexts` contexts of random
// slices, and a random switch cost (0 included).
Workload random_sliced_workload(std::uint64_t seed, int contexts) {
    std::mt19937_64 rng(seed);
    auto pick = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng); };
    RandomWorkloadSpec spec;
    spec.kernels = static_cast<int>(pick(4, 10));
    spec.streams = static_cast<int>(pick(contexts, 6));
    spec.staggered_issue = true;
    spec.high_priority_streams = static_cast<int>(pick(0, 1));
    spec.null_stream = pick(0, 3) == 0;
    spec.after_idle_percent = 30;
    spec.block_time_denominator = 2;
    Workload w = random_workload(spec, seed * 31 + 7);
    for (int c = 0; c < contexts; ++c)
        w.contexts.push_back({"ctx" + std::to_string(c), Time(pick(1, 6), pick(1, 2)), {}});
    for (std::size_t i = 0; i < w.streams.size(); ++i) w.streams[i].context = static_cast<int>(i) % contexts;
    w.platform.context_switch = Time(pick(0, 2), 2);
    return w;
}

// How long context `c` ran before `t`: the instant `t` in the context's own time axis.
Time own_time(const Schedule& s, int c, const Time& t) {
    Time v = 0;
    for (const ContextSlice& x : s.slices)
        if (x.context == c && x.start < t) v += std::min(x.end, t) - x.start;
    return v;
}

// Context `c` alone, its operations issued at the instants of its own time axis at which they
// were issued under the slices, ties in the same launch order.
std::pair<Workload, Scenario> alone(const Workload& w, const Schedule& s, int c, std::vector<int>& index) {
    Workload a;
    a.platform = w.platform;
    std::vector<int> stream_index(w.streams.size(), -1);
    for (std::size_t i = 0; i < w.streams.size(); ++i) {
        if (w.streams[i].context != c) continue;
        stream_index[i] = static_cast<int>(a.streams.size());
        a.streams.push_back(w.streams[i]);
        a.streams.back().context = 0;
    }
    Scenario sc;
    index.assign(w.ops.size(), -1);
    std::vector<int> count(a.streams.size(), 0);
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        if (stream_index[w.ops[i].stream] < 0) continue;
        index[i] = static_cast<int>(a.ops.size());
        Operation op = w.ops[i];
        op.stream = stream_index[op.stream];
        op.position = count[op.stream]++;
        const Time at = own_time(s, c, s.ops[i].issue);
        op.issue = IssueSpec{IssueSpec::Kind::at, {at, at}, 0, std::nullopt};
        a.ops.push_back(op);
        sc.rank.push_back(s.ops[i].launch_seq);
    }
    return {a, sc};
}

void check_alone_in_own_time(const Workload& w, const Schedule& s) {
    for (int c = 0; c < static_cast<int>(w.contexts.size()); ++c) {
        std::vector<int> index;
        const auto [a, sc] = alone(w, s, c, index);
        if (a.ops.empty()) continue;
        const Schedule by_itself = simulate(a, sc);
        for (std::size_t i = 0; i < w.ops.size(); ++i) {
            if (index[i] < 0) continue;
            INFO("context " << c << ", " << w.ops[i].name);
            CHECK(own_time(s, c, s.ops[i].start) == by_itself.ops[index[i]].start);
            CHECK(own_time(s, c, s.ops[i].finish) == by_itself.ops[index[i]].finish);
        }
        std::map<std::pair<int, std::int64_t>, const BlockTiming*> blocks;
        for (const BlockTiming& b : by_itself.blocks) blocks[{b.kernel, b.index}] = &b;
        for (const BlockTiming& b : s.blocks) {
            if (index[b.kernel] < 0) continue;
            const BlockTiming& x = *blocks.at({index[b.kernel], b.index});
            CHECK(b.sm == x.sm);
            CHECK(own_time(s, c, b.start) == x.start);
            CHECK(own_time(s, c, b.end) == x.end);
        }
    }
}

// Slices and switches in time order, none overlapping; every switch takes context_switch.
std::vector<ContextSlice> engine_intervals(const Workload& w, const Schedule& s) {
    std::vector<ContextSlice> all = s.slices;
    all.insert(all.end(), s.switches.begin(), s.switches.end());
    std::sort(all.begin(), all.end(), [](const ContextSlice& a, const ContextSlice& b) {
        return a.start < b.start || (a.start == b.start && a.end < b.end);  // a free switch first
    });
    for (std::size_t i = 0; i + 1 < all.size(); ++i) CHECK(all[i].end <= all[i + 1].start);
    for (const ContextSlice& x : s.switches) CHECK(x.end - x.start == w.platform.context_switch);
    for (const ContextSlice& x : s.slices) CHECK(x.start < x.end);
    return all;
}

// While a kernel is issued and not complete, the engine is switching or running a context.
void check_never_idle_while_pending(const Workload& w, const Schedule& s, const std::vector<ContextSlice>& all) {
    std::vector<std::pair<Time, Time>> busy;  // the union, adjacent intervals joined
    for (const ContextSlice& x : all)
        if (!busy.empty() && x.start <= busy.back().second) busy.back().second = std::max(busy.back().second, x.end);
        else busy.emplace_back(x.start, x.end);
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const Time &from = s.ops[i].issue, &to = s.ops[i].finish;
        INFO(w.ops[i].name << " pending from " << human_string(from) << " to " << human_string(to));
        CHECK(std::any_of(busy.begin(), busy.end(), [&](const auto& b) { return b.first <= from && to <= b.second; }));
    }
}

}  // namespace

TEST_CASE("contexts: the round-robin case's slices and switches are the derived ones", "[contexts][sim]") {
    const Workload w = load_workload_file(test::source_path("cases/contexts/round-robin.toml"));
    const Schedule s = simulate(w);
    auto list = [&](const std::vector<ContextSlice>& xs) {
        std::string out;
        for (const ContextSlice& x : xs)
            out += w.contexts[x.context].name + "[" + human_string(x.start) + "," + human_string(x.end) + "] ";
        return out;
    };
    // round-robin.md, the table.
    CHECK(list(s.slices) == "A[0.5,3.5] B[4,6] C[6.5,7.5] A[8,10] B[10.5,13.5] ");
    CHECK(list(s.switches) == "A[0,0.5] B[3.5,4] C[6,6.5] A[7.5,8] B[10,10.5] ");
    // KA's block ran in two pieces: 3 ms, then 2 after the other contexts.
    const auto ka = std::find_if(s.blocks.begin(), s.blocks.end(), [&](const BlockTiming& b) { return b.kernel == 0; });
    const auto pieces = block_pieces(w, s, *ka);
    REQUIRE(pieces.size() == 2);
    CHECK(pieces[0] == std::pair<Time, Time>{Time(1, 2), Time(7, 2)});
    CHECK(pieces[1] == std::pair<Time, Time>{Time(8), Time(10)});
}

TEST_CASE("contexts: simulate shows the slices in the table, JSON and chart", "[contexts][sim][cli]") {
    const std::string path = test::source_path("cases/contexts/round-robin.toml");
    const test::CliRun table = test::run_cli({"simulate", path});
    REQUIRE(table.exit_code == 0);
    CHECK(test::contains(table.out, "switch to"));
    CHECK(test::occurrences(table.out, "runs") == 5);
    const test::CliRun json = test::run_cli({"simulate", "--json", path});
    REQUIRE(json.exit_code == 0);
    const Json j = Json::parse(json.out);
    REQUIRE(j["slices"].size() == 5);
    CHECK(j["slices"][1]["context"] == "B");
    CHECK(j["slices"][1]["start"] == "4");
    CHECK(j["switches"][0]["end"] == "1/2");
    const auto [code, messages] = test::validate_json_text("simulate", json.out);
    if (code != 77) CHECK(code == 0);
    const std::string svg = test::temp_dir() + "/rr.svg";
    REQUIRE(test::run_cli({"simulate", path, "--svg", svg}).exit_code == 0);
    const std::string chart = test::slurp(svg);
    CHECK(test::occurrences(chart, "class=\"context-slice\"") == 5);
    CHECK(test::occurrences(chart, "class=\"context-switch\"") == 5);
    CHECK(test::occurrences(chart, "data-block=\"KA:0\"") == 2);  // preempted once: two pieces
    CHECK(test::svg_text_problems(chart).empty());
}

TEST_CASE("contexts: each context runs in its own time as it would alone, work conserved", "[contexts][sim]") {
    for (std::uint64_t seed = 1; seed <= test::seeded(300); ++seed) {
        const Workload w = random_sliced_workload(seed, 2 + static_cast<int>(seed % 2));
        INFO("seed " << seed);
        const Schedule s = simulate(w);
        const std::vector<ContextSlice> all = engine_intervals(w, s);
        check_never_idle_while_pending(w, s, all);
        for (const BlockTiming& b : s.blocks) {
            Time ran = 0;
            for (const auto& [from, to] : block_pieces(w, s, b)) ran += to - from;
            CHECK(ran == w.ops[b.kernel].time.hi);
        }
        check_alone_in_own_time(w, s);
    }
}

TEST_CASE("contexts: one context, declared or not, simulates as without contexts", "[contexts][sim]") {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        Workload w = random_sliced_workload(seed, 2);
        w.contexts.resize(1);
        for (Stream& st : w.streams) st.context = 0;
        const Schedule one = simulate(w);
        w.contexts.clear();
        const Schedule none = simulate(w);
        CHECK(one.slices.empty());
        for (std::size_t i = 0; i < w.ops.size(); ++i) CHECK(one.ops[i].finish == none.ops[i].finish);
    }
}

// The round-robin case with KA's block split into 16 thin blocks: too thin to draw one by one, so
// the chart draws bands, and a band of a preempted kernel is drawn in its pieces as its blocks
// would be: KA ran in A's slices [0.5, 3.5] and [8, 10], KB in B's [4, 6] and [10.5, 13.5].
TEST_CASE("contexts: the band view draws a preempted kernel in its pieces", "[contexts][sim][svg]") {
    std::string text = test::slurp(test::source_path("cases/contexts/round-robin.toml"));
    const std::string one_block = "name = \"KA\"\nstream = \"sa\"\nblocks = 1\nthreads = 1024";
    REQUIRE(test::contains(text, one_block));
    text.replace(text.find(one_block), one_block.size(), "name = \"KA\"\nstream = \"sa\"\nblocks = 16\nthreads = 64");
    const std::string path = test::temp_dir() + "/rr-thin.toml", svg = test::temp_dir() + "/rr-thin.svg";
    std::ofstream(path) << text;
    REQUIRE(test::run_cli({"simulate", path, "--svg", svg}).exit_code == 0);
    const std::string chart = test::slurp(svg);
    CHECK(test::occurrences(chart, "class=\"block\"") == 0);
    const std::pair<std::string, std::size_t> pieces[] = {{"KA", 2}, {"KB", 2}, {"KC", 1}};
    for (const auto& [kernel, n] : pieces)
        CHECK(test::occurrences(chart, "class=\"band\" data-kernel=\"" + kernel + "\"") == n);
    CHECK(test::contains(chart, "KA on SM0: 16 of 16 blocks, 8 to 10"));
    CHECK(test::contains(chart, "in the pieces its context held the GPU"));
    CHECK(test::svg_text_problems(chart).empty());
}

// simulate --frames draws the GPU lane over the SMs, a band per slice, as the chart of one frame.
TEST_CASE("contexts: simulate --frames charts which context holds the GPU", "[contexts][sim][svg][frames]") {
    const std::string path = test::source_path("cases/slices/round-robin.toml");
    const std::string svg = test::temp_dir() + "/rr-frames.svg";
    REQUIRE(test::run_cli({"simulate", path, "--frames", "2", "--svg", svg}).exit_code == 0);
    const test::CliRun json = test::run_cli({"simulate", path, "--frames", "2", "--json"});
    REQUIRE(json.exit_code == 0);
    const Json j = Json::parse(json.out);
    const std::string chart = test::slurp(svg);
    REQUIRE(j["slices"].size() >= 4);
    CHECK(test::occurrences(chart, "class=\"context-slice\"") == j["slices"].size());
    CHECK(test::occurrences(chart, "class=\"context-switch\"") == j["switches"].size());
    CHECK(test::svg_text_problems(chart).empty());
}
