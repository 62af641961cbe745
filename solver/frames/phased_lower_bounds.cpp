#include "solver/frames/phased_lower_bounds.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "model/frames/horizon.hpp"
#include "model/integer_time.hpp"
#include "sim/search/lower_bounds.hpp"
#include "sim/simulate.hpp"

namespace gpuwcrt {
namespace {

// The phasing `shift`: every frame of a sporadic stream released at its densest nominal instant
// plus `shift` modulo its min_interarrival, every other frame at its nominal instant.
Unrolled phasing(const Workload& w, const Workload& dense, const Unrolled& u, const Time& shift) {
    const auto release = [&w, &shift](int stream, std::int64_t frame) {
        const Arrival& a = w.streams[static_cast<std::size_t>(stream)].arrival;
        Time at = a.release(frame).lo;
        if (a.kind == Arrival::Kind::sporadic) {
            const Time turns = shift / a.period;
            const auto whole = boost::multiprecision::numerator(turns) / boost::multiprecision::denominator(turns);
            at += shift - a.period * Time(whole);
        }
        return TimeRange{at, at};
    };
    return unroll_windows(dense, u.frames, release, {w.source, 0, 0});
}

// The shifts tried: eighths of the longest min_interarrival, and the instants at which the
// other streams' first frames issue their operations (a sporadic frame released just then, or
// just before, meets their burst), at most `most` in all.
std::vector<Time> shifts(const Workload& w, std::size_t most) {
    Time longest = 0;
    for (const Stream& s : w.streams)
        if (s.arrival.kind == Arrival::Kind::sporadic) longest = std::max(longest, s.arrival.period);
    std::vector<Time> out;
    const auto add = [&out, most](const Time& t) {
        if (t > 0 && out.size() < most && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    };
    for (const Operation& op : w.ops) {
        const Arrival& a = w.streams[static_cast<std::size_t>(op.stream)].arrival;
        if (a.kind == Arrival::Kind::sporadic || op.issue.kind != IssueSpec::Kind::at) continue;
        add(a.offset + op.issue.at.lo);
        add(a.offset + op.issue.at.lo - longest / 64);
    }
    for (int j = 1; j < 8; ++j) add(longest * Time(j, 8));
    return out;
}

// Per operation of `from`, the same frame's operation in `to`.
std::vector<int> index_in(const Unrolled& from, const Unrolled& to) {
    std::map<std::pair<int, std::int64_t>, int> index;
    for (std::size_t j = 0; j < to.origin.size(); ++j)
        index[{to.origin[j].op, to.origin[j].frame}] = static_cast<int>(j);
    std::vector<int> at(from.origin.size());
    for (std::size_t i = 0; i < from.origin.size(); ++i) at[i] = index.at({from.origin[i].op, from.origin[i].frame});
    return at;
}

// `x`, a scenario of `from`, as one of `to` (`at`: index_in(from, to)): the same frames'
// operations, listed in another order; every issue instant made explicit, as `to`'s windows are
// wider.
WitnessScenario carried_over(const Unrolled& from, const Unrolled& to, const std::vector<int>& at,
                             const WitnessScenario& x) {
    const std::size_t n = to.origin.size();
    WitnessScenario y;
    for (const int i : x.launch_order) y.launch_order.push_back(at[static_cast<std::size_t>(i)]);
    y.sm.resize(n);
    y.block_time.resize(n);
    y.issue.resize(n);
    for (std::size_t i = 0; i < from.origin.size(); ++i) {
        const auto j = static_cast<std::size_t>(at[i]);
        if (i < x.sm.size()) y.sm[j] = x.sm[i];
        if (i < x.block_time.size()) y.block_time[j] = x.block_time[i];
        const IssueSpec& is = from.workload.ops[i].issue;
        if (is.kind == IssueSpec::Kind::at) y.issue[j] = i < x.issue.size() && x.issue[i] ? *x.issue[i] : is.at.lo;
    }
    return y;
}

}  // namespace

search::BestScenarios phased_candidates(const Workload& w, const Unrolled& u, const Budget& budget, long simulations,
                                        std::uint64_t seed, long long& ran) {
    search::BestScenarios best(u.workload);
    if (!has_sporadic_stream(w)) return best;
    const Workload dense = densest(w);
    // Each phasing costs a search and replays over every frame: fewer on many frames.
    const std::size_t phasings = std::clamp<std::size_t>(2400 / std::max<std::size_t>(1, u.origin.size()), 2, 8);
    const std::vector<Time> tried = shifts(w, phasings);
    for (std::size_t j = 0; j < tried.size() && !budget.expired(); ++j) {
        const Unrolled p = phasing(w, dense, u, tried[j]);
        std::optional<IntegerTimes> times;
        try {
            times = integer_times(p.workload);
        } catch (const InputError&) {
            continue;  // times finer than integer ticks
        }
        search::LowerBoundSearch s(p.workload, *times, Policy::chooser, seed + j);
        s.run(simulations, budget.slice(1, static_cast<long long>(tried.size() - j)));
        ran += s.simulations();
        const std::vector<int> at = index_in(p, u);
        for (std::size_t i = 0; i < p.workload.ops.size() && !budget.expired(); ++i) {
            // Replayed on u, the scenario gives this operation the same response: only a better
            // one is worth the replay.
            const std::optional<Time>& found = s.best()[i];
            if (!found || !best.improves(at[i], *found)) continue;
            auto x = std::make_shared<const WitnessScenario>(carried_over(p, u, at, s.witness(static_cast<int>(i))));
            // A scenario fixes no release of an after_stream_idle frame: on u such a frame waits
            // from the start of its wider window, not from the phasing's release, and the blocks'
            // fixed SMs may then not fit. Only what replays on u is a scenario of u.
            std::optional<Schedule> replayed;
            try {
                replayed = simulate(u.workload, witness_scenario(u.workload, *x));
            } catch (const InputError&) {
                continue;
            }
            for (std::size_t k = 0; k < u.workload.ops.size(); ++k)
                best.keep(static_cast<int>(k), replayed->response(static_cast<int>(k)), x);
        }
    }
    return best;
}

}  // namespace gpuwcrt
