// workload_to_toml must be the inverse of the loader: load(write(w)) == w for every case file
// and for random workloads that use every feature of the format.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <random>

#include "model/io/write_toml.hpp"
#include "support.hpp"

using namespace gpuwcrt;

namespace {

bool same_issue(const IssueSpec& a, const IssueSpec& b) {
    if (a.kind != b.kind) return false;
    if (a.kind == IssueSpec::Kind::at) return a.at.lo == b.at.lo && a.at.hi == b.at.hi;
    if (a.kind == IssueSpec::Kind::after_stream_idle) return a.delay == b.delay;
    return true;
}

// Everything the format carries; `where`, `source` and expectations are not part of it.
void require_equal(const Workload& a, const Workload& b) {
    const Platform &p = a.platform, &q = b.platform;
    CHECK(p.sms == q.sms);
    CHECK(p.threads_per_sm == q.threads_per_sm);
    CHECK(p.threads_per_block_max == q.threads_per_block_max);
    CHECK(p.shared_mem_per_sm == q.shared_mem_per_sm);
    CHECK(p.shared_mem_per_block_max == q.shared_mem_per_block_max);
    CHECK(p.registers_per_sm == q.registers_per_sm);
    CHECK(p.registers_per_block_max == q.registers_per_block_max);
    CHECK(p.blocks_per_sm_max == q.blocks_per_sm_max);
    CHECK(p.copy_engines == q.copy_engines);
    CHECK(p.context_switch == q.context_switch);
    REQUIRE(a.contexts.size() == b.contexts.size());
    for (std::size_t i = 0; i < a.contexts.size(); ++i) {
        CHECK(a.contexts[i].name == b.contexts[i].name);
        CHECK(a.contexts[i].timeslice == b.contexts[i].timeslice);
    }
    REQUIRE(a.streams.size() == b.streams.size());
    for (std::size_t i = 0; i < a.streams.size(); ++i) {
        CHECK(a.streams[i].name == b.streams[i].name);
        CHECK(a.streams[i].priority == b.streams[i].priority);
        CHECK(a.streams[i].is_null == b.streams[i].is_null);
        CHECK(a.streams[i].context == b.streams[i].context);
        const Arrival &x = a.streams[i].arrival, &y = b.streams[i].arrival;
        CHECK(x.kind == y.kind);
        CHECK(x.period == y.period);
        CHECK(x.offset == y.offset);
        CHECK(x.jitter == y.jitter);
    }
    REQUIRE(a.ops.size() == b.ops.size());
    for (std::size_t i = 0; i < a.ops.size(); ++i) {
        const Operation &x = a.ops[i], &y = b.ops[i];
        INFO("operation " << x.name);
        CHECK(x.name == y.name);
        CHECK(x.kind == y.kind);
        CHECK(x.stream == y.stream);
        CHECK(x.position == y.position);
        CHECK(x.blocks == y.blocks);
        CHECK(x.threads == y.threads);
        CHECK(x.shared_mem == y.shared_mem);
        CHECK(x.registers == y.registers);
        CHECK(x.time.lo == y.time.lo);
        CHECK(x.time.hi == y.time.hi);
        CHECK(same_issue(x.issue, y.issue));
        CHECK(x.deadline == y.deadline);
        CHECK(x.wait == y.wait);
    }
    REQUIRE(a.scenario.has_value() == b.scenario.has_value());
    if (a.scenario) {
        CHECK(a.scenario->order == b.scenario->order);
        CHECK(a.scenario->policy == b.scenario->policy);
        CHECK(a.scenario->sm == b.scenario->sm);
    }
}

// A random workload over every feature: platform overrides, priorities, the NULL stream,
// kernels and copies interleaved, rational and interval times, windows, after_stream_idle,
// with_previous, deadlines, names needing escapes, and a [scenario].
Workload random_full_workload(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto pick = [&](long lo, long hi) { return std::uniform_int_distribution<long>(lo, hi)(rng); };
    auto time = [&] {
        static const long dens[] = {1, 2, 3, 4, 7, 10, 1000, 1000000000};
        return Time(pick(1, 60)) / dens[pick(0, 7)];
    };
    Workload w;
    if (pick(0, 1)) w.platform.sms = static_cast<int>(pick(1, 4));
    if (pick(0, 2) == 0) w.platform.copy_engines = 2;
    if (pick(0, 2) == 0) w.platform.shared_mem_per_sm = 98304;
    const int streams = static_cast<int>(pick(1, 4));
    for (int s = 0; s < streams; ++s) {
        Stream st;
        st.name = s == 0 && pick(0, 1) ? "na\"me \\ with é escapes" : "s" + std::to_string(s);
        st.priority = pick(0, 1) ? Priority::high : Priority::low;
        if (s == streams - 1 && pick(0, 1)) {
            st.is_null = true;
            st.priority = Priority::low;
        }
        w.streams.push_back(st);
    }
    std::vector<int> count(streams, 0);
    std::vector<Time> last_issue(streams, 0);
    const int ops = static_cast<int>(pick(1, 8));
    for (int i = 0; i < ops; ++i) {
        Operation op;
        op.name = (i % 3 == 0 ? "kernel é " : "op.") + std::to_string(i);
        op.stream = static_cast<int>(pick(0, streams - 1));
        op.position = count[op.stream]++;
        op.kind = pick(0, 3) == 0 ? OpKind::copy : OpKind::kernel;
        Time t = time();
        op.time = pick(0, 3) == 0 ? TimeRange{t, t + time()} : TimeRange{t, t};
        if (op.is_kernel()) {
            op.blocks = pick(1, 9);
            op.threads = 32 * pick(1, 32);
            op.shared_mem = pick(0, 1) ? 1024 * pick(0, 16) : 0;
            op.registers = pick(0, 1) ? pick(0, 32) : 0;
        }
        const long k = op.position == 0 ? pick(0, 1) : pick(0, 2);
        if (k == 0) {
            Time lo = last_issue[op.stream] + (pick(0, 1) ? time() : Time(0));
            op.issue.at = pick(0, 3) == 0 ? TimeRange{lo, lo + time()} : TimeRange{lo, lo};
            last_issue[op.stream] = op.issue.at.hi;
        } else if (k == 1) {
            op.issue.kind = IssueSpec::Kind::after_stream_idle;
            op.issue.delay = pick(0, 1) ? time() : Time(0);
        } else {
            op.issue.kind = IssueSpec::Kind::with_previous;
        }
        if (pick(0, 1)) op.deadline = time();
        w.ops.push_back(op);
    }
    if (pick(0, 1)) {
        FixedScenario f;
        for (const Operation& op : w.ops)
            if (pick(0, 1)) f.order.push_back(op.name);
        if (pick(0, 1)) f.policy = "first-fit";
        for (const Operation& op : w.ops)
            if (op.is_kernel() && pick(0, 2) == 0)
                f.sm[op.name] = std::vector<int>(op.blocks, static_cast<int>(pick(0, w.platform.sms - 1)));
        w.scenario = f;
    }
    return w;
}

}  // namespace

TEST_CASE("every case file survives write and reload unchanged", "[write_toml]") {
    int files = 0;
    for (const auto& f : test::workload_case_files()) {
        INFO(f);
        const Workload w = load_workload_file(f);
        require_equal(w, load_workload_text(workload_to_toml(w), "written.toml"));
        ++files;
    }
    CHECK(files >= 3);
}

TEST_CASE("random workloads with every feature survive write and reload", "[write_toml]") {
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        INFO("seed " << seed);
        const Workload w = random_full_workload(seed);
        const std::string text = workload_to_toml(w, {"a title", "a source", {"two\nlines"}});
        Workload back;
        try {
            back = load_workload_text(text, "random.toml");
        } catch (const InputError& e) {
            FAIL(e.what() << "\n" << text);
        }
        require_equal(w, back);
    }
}

TEST_CASE("times are written exactly: integers, decimals, fractions", "[write_toml]") {
    CHECK(toml_time(Time(4)) == "4");
    CHECK(toml_time(Time(2, 5)) == "0.4");
    CHECK(toml_time(Time(68093376, 1000000000)) == "0.068093376");
    CHECK(toml_time(Time(1, 3)) == "\"1/3\"");
    CHECK(toml_time(Time(BigInt(1) << 70)) == "\"" + (BigInt(1) << 70).str() + "\"");
    CHECK(toml_time(Time(1, BigInt(1) << 60)).front() == '"');  // 60 decimals: written as a fraction
}

TEST_CASE("platform defaults are left out, other values written", "[write_toml]") {
    Workload w = test::workload_from("[[kernel]]\nname = \"k\"\nblocks = 1\nthreads = 32\nblock_time = 1\n");
    CHECK(workload_to_toml(w).find("[platform]") == std::string::npos);
    w.platform.sms = 4;
    const std::string text = workload_to_toml(w);
    CHECK(text.find("[platform]\nsms = 4\n") != std::string::npos);
    CHECK(load_workload_text(text, "t.toml").platform.sms == 4);
}

TEST_CASE("the thesis example written out reads back with its file order", "[write_toml]") {
    const Workload w = load_workload_file(test::source_path("cases/thesis/example.toml"));
    const std::string text = workload_to_toml(w);
    CHECK(text.find("[[expect]]") == std::string::npos);
    CHECK(text.find("name = \"t1\"") < text.find("name = \"t4\""));
    CHECK(test::slurp(test::source_path("cases/thesis/example.toml")).find("[[expect]]") != std::string::npos);
}
