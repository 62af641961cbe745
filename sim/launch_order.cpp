#include <set>

#include "model/issue_bounds.hpp"
#include "model/name_policy.hpp"
#include "sim/scenario.hpp"

namespace gpuwcrt {

std::optional<Policy> parse_policy(const std::string& name) {
    if (name == "most-room") return Policy::most_room;
    if (name == "round-robin") return Policy::round_robin;
    if (name == "first-fit") return Policy::first_fit;
    return std::nullopt;
}

std::string policy_name(Policy p) {
    switch (p) {
        case Policy::most_room:
            return "most-room";
        case Policy::round_robin:
            return "round-robin";
        case Policy::first_fit:
            return "first-fit";
        case Policy::chooser:
            return "any";
    }
    return "?";
}

namespace {

// "issued at 1", or the end of its bounds that orders the pair: "issued at 1 or later" for the
// one launched too early, "issued by 2" for the one it should follow.
std::string issued_text(const IssueBounds<Time>& b, bool earliest) {
    if (b.fixed()) return "issued at " + human_string(b.lo);
    return earliest ? "issued at " + human_string(b.lo) + " or later" : "issued by " + human_string(*b.hi);
}

}  // namespace

std::vector<long> launch_ranks(const Workload& w, const std::vector<std::string>& order, const OrderSource& from) {
    auto fail = [&](const std::string& message) { throw InputError(from.where, from.prefix + message); };
    const long n = static_cast<long>(w.ops.size());
    std::vector<long> rank(n);
    for (long i = 0; i < n; ++i) rank[i] = n + i;
    std::set<int> seen;
    const auto index = w.op_index();
    for (std::size_t pos = 0; pos < order.size(); ++pos) {
        if (order[pos].empty()) fail("name " + std::to_string(pos + 1) + " is empty");
        const auto found = index.find(order[pos]);
        if (found == index.end()) fail("unknown operation " + quoted_name(order[pos]));
        const std::optional<int> idx = found->second;
        if (!seen.insert(*idx).second) fail("names " + quoted_name(order[pos]) + " twice");
        rank[*idx] = static_cast<long>(pos);
    }
    // Only named operations are checked: unnamed ones merely lose ties, and the simulator never
    // issues an operation before its stream predecessor. Stream order first, in one pass.
    std::vector<int> prev(w.streams.size(), -1);
    for (long i = 0; i < n; ++i) {
        const int p = prev[w.ops[i].stream];
        if (p >= 0 && rank[i] < rank[p] && rank[p] < n)
            fail("launches '" + w.ops[i].name + "' before '" + w.ops[p].name + "', which precedes it in stream '" +
                 w.streams[w.ops[i].stream].name + "' (" + w.ops[i].where.str() + ")");
        prev[w.ops[i].stream] = static_cast<int>(i);
    }
    // Issue times: of two named operations, one surely issued strictly earlier cannot be
    // launched later (model/issue_bounds.hpp; any other pair ties in some run).
    const std::vector<IssueBounds<Time>> bounds = issue_bounds(w);
    std::vector<int> named(order.size());
    for (long i = 0; i < n; ++i)
        if (rank[i] < n) named[rank[i]] = static_cast<int>(i);
    // The first such pair (a, b) in order, in linear time: a is the first named operation
    // issued after the earliest sure issue of a later one, b the first later one it follows.
    std::vector<std::optional<Time>> later_min_hi(named.size() + 1);
    for (std::size_t a = named.size(); a-- > 0;) {
        const std::optional<Time>& hi = bounds[named[a]].hi;
        later_min_hi[a] = later_min_hi[a + 1];
        if (hi && (!later_min_hi[a] || *hi < *later_min_hi[a])) later_min_hi[a] = hi;
    }
    for (std::size_t a = 0; a < named.size(); ++a) {
        const IssueBounds<Time>& x = bounds[named[a]];
        if (!later_min_hi[a + 1] || !(*later_min_hi[a + 1] < x.lo)) continue;
        for (std::size_t b = a + 1; b < named.size(); ++b)
            if (surely_issued_before(bounds[named[b]], x))
                fail("launches '" + w.ops[named[a]].name + "' (" + issued_text(x, true) + ") before '" +
                     w.ops[named[b]].name + "' (" + issued_text(bounds[named[b]], false) + ")");
    }
    return rank;
}

}  // namespace gpuwcrt
