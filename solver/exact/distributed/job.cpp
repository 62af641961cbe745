#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "bounds/engine_options.hpp"
#include "bounds/engine_stats.hpp"
#include "model/io/load_toml.hpp"
#include "model/io/write_toml.hpp"
#include "model/source_location.hpp"
#include "solver/exact/distributed/comm.hpp"
#include "solver/exact/distributed/process_search.hpp"
#include "solver/exact/distributed/search.hpp"
#include "solver/exact/problem.hpp"
#include "solver/exact/varint.hpp"

namespace gpuwcrt::exact::distributed {
namespace {

enum JobKind : std::int64_t { job_release = 0, job_search = 1 };

// 1 MiB: measured, 4 MiB took a tenth more memory per process at n = 10 and no less time.
std::size_t round_bytes_setting = std::size_t(1) << 20;

// What rank 0 hands to the others for one search: the workload as TOML (write_toml.hpp: it
// loads back equal) and everything else the search's course depends on.
struct SearchJob {
    std::string workload;
    std::int64_t policy = 0, threads = 0, deadline_ms = -1, deadline_reason = 0, memory_bytes = 0;
    std::int64_t max_states = 0, prune = 0, seed_beam = 0, round_bytes = 0;

    std::string bytes() const {
        std::string out;
        for (std::int64_t v :
             {policy, threads, deadline_ms, deadline_reason, memory_bytes, max_states, prune, seed_beam, round_bytes})
            put_varint(out, v);
        return out + workload;
    }
    static SearchJob from(const std::string& in) {
        SearchJob j;
        VarintReader r{in};
        for (std::int64_t* v : {&j.policy, &j.threads, &j.deadline_ms, &j.deadline_reason, &j.memory_bytes,
                                &j.max_states, &j.prune, &j.seed_beam, &j.round_bytes})
            *v = r.get();
        j.workload = in.substr(r.at);
        return j;
    }
};

Budget budget_of(const SearchJob& job) {
    Budget b = Budget::for_timeout(job.deadline_ms < 0 ? std::nullopt
                                                       : std::optional(std::chrono::milliseconds(job.deadline_ms)));
    b.deadline_reason = static_cast<StopReason>(job.deadline_reason);
    b.memory_bytes = static_cast<std::size_t>(job.memory_bytes);
    return b;
}

SearchShape shape_of(const SearchJob& job, const Problem& p) {
    SearchShape s;
    s.search.threads = worker_threads(static_cast<int>(job.threads), processes_on_node());  // collective
    s.search.max_states = job.max_states;
    s.search.prune = job.prune != 0;
    s.search.prune = prunes(p, s.search);
    s.round_bytes = static_cast<std::size_t>(job.round_bytes);
    return s;
}

// The seeding run's responses, from rank 0 to every process (rank 0 runs it; `kept` is its).
Seeds shared_seeds(const SearchJob& job, const SearchShape& shape, const Problem& p, const Budget& budget,
                   const StatesSignal& stored, search::BestScenarios* kept) {
    Seeds seeds{std::vector<char>(static_cast<std::size_t>(p.n), 0), std::vector<std::int64_t>(p.n, 0)};
    std::vector<std::int64_t> values(2 * static_cast<std::size_t>(p.n), 0);
    if (kept && shape.search.prune && job.seed_beam > 0) {
        EngineOptions o;
        o.policy = p.policy;
        o.threads = shape.search.threads;
        seeds = seed_responses(*p.w, o, budget, static_cast<int>(job.seed_beam), stored, *kept);
        for (int op = 0; op < p.n; ++op) {
            values[2 * static_cast<std::size_t>(op)] = seeds.found[static_cast<std::size_t>(op)];
            values[2 * static_cast<std::size_t>(op) + 1] = seeds.response[static_cast<std::size_t>(op)];
        }
    }
    broadcast(values, 0);
    for (int op = 0; op < p.n; ++op) {
        seeds.found[static_cast<std::size_t>(op)] = static_cast<char>(values[2 * static_cast<std::size_t>(op)]);
        seeds.response[static_cast<std::size_t>(op)] = values[2 * static_cast<std::size_t>(op) + 1];
    }
    return seeds;
}

struct Searched {
    std::string stop;
    std::vector<GatheredBest> best;
    ExactStats stats;
};

// Every process: the search itself. An exception here would leave the others waiting in a
// collective: the run ends (abort_run) instead.
Searched search_everywhere(const SearchJob& job, const Problem& p, const Budget& budget, const ProgressSink& progress,
                           const StatesSignal& stored, search::BestScenarios* kept) {
    try {
        const SearchShape shape = shape_of(job, p);
        const Seeds seeds = shared_seeds(job, shape, p, budget, stored, kept);
        ProcessSearch s(p, budget, shape, stored);
        Searched out;
        const std::optional<StopReason> stop = s.run(seeds, progress);
        out.stop = stop ? to_string(*stop) : "";
        out.best = s.best_on_root();
        out.stats = s.stats_on_root();
        return out;
    } catch (const std::exception& e) {
        abort_run("gpuwcrt: internal error in process " + std::to_string(process_rank()) +
                      " of the exact search across processes: " + e.what(),
                  4);
    }
}

}  // namespace

void set_round_bytes(std::size_t bytes) { round_bytes_setting = std::max<std::size_t>(bytes, 1); }

std::optional<ExactResult> exact_wcrt_across_processes(const Workload& w, const EngineOptions& o, const Budget& budget,
                                                       const ExactSearchOptions& options, const ProgressSink& progress,
                                                       const StatesSignal& stored) {
    const auto t0 = std::chrono::steady_clock::now();
    SearchJob job;
    try {
        job.workload = workload_to_toml(w);
    } catch (const std::logic_error&) {
        return std::nullopt;  // no TOML form: this process searches alone
    }
    std::optional<Workload> loaded;
    try {
        loaded = load_workload_text(job.workload, "the workload handed to the other processes");
    } catch (const InputError&) {
        return std::nullopt;  // not one the others could read back: this process searches alone
    }
    const Workload& copy = *loaded;
    const Problem p = make_problem(copy, o.policy);  // its refusals before the others start
    job.policy = static_cast<std::int64_t>(o.policy);
    job.threads = o.threads;
    if (const auto left = budget.remaining()) job.deadline_ms = left->count();
    job.deadline_reason = static_cast<std::int64_t>(budget.deadline_reason);
    job.memory_bytes = static_cast<std::int64_t>(budget.memory_bytes);
    job.max_states = options.max_states;
    job.prune = options.prune;
    job.seed_beam = options.seed_beam;
    job.round_bytes = static_cast<std::int64_t>(round_bytes_setting);
    std::vector<std::int64_t> header{job_search, 0};
    broadcast(header, 0);
    std::string bytes = job.bytes();
    broadcast(bytes, 0);
    search::BestScenarios kept(copy);
    Searched s = search_everywhere(job, p, budget, progress, stored, &kept);
    ExactResult r;
    r.complete = s.stop.empty();
    r.stats = s.stats;
    for (int op = 0; op < p.n; ++op) {
        GatheredBest& g = s.best[static_cast<std::size_t>(op)];
        r.wcrt.push_back(exact_answer(p, op, s.stop, g.best, kept, [&] { return g.steps; }));
    }
    r.stats.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
    return r;
}

int serve() {
    for (;;) {
        std::vector<std::int64_t> header{job_release, 0};
        broadcast(header, 0);
        if (header[0] == job_release) return static_cast<int>(header[1]);
        std::string bytes;
        broadcast(bytes, 0);
        const SearchJob job = SearchJob::from(bytes);
        try {
            const Workload w = load_workload_text(job.workload, "the workload handed over by process 0");
            const Problem p = make_problem(w, static_cast<Policy>(job.policy));
            search_everywhere(job, p, budget_of(job), {}, {}, nullptr);
        } catch (const std::exception& e) {
            abort_run("gpuwcrt: internal error in process " + std::to_string(process_rank()) + ": " + e.what(), 4);
        }
    }
}

void release(int exit_code) {
    std::vector<std::int64_t> header{job_release, exit_code};
    broadcast(header, 0);
}

}  // namespace gpuwcrt::exact::distributed
