#include "model/integer_time.hpp"

#include <algorithm>
#include <string>

#include "model/checked_int.hpp"

namespace gpuwcrt {
namespace {

[[noreturn]] void too_fine(const SourceLocation& where, const std::string& what) {
    throw InputError(where, what +
                                " does not fit the explicit engines' integer time (at most 2^50 "
                                "ticks of 1/LCM-of-denominators time units); use fewer decimal places "
                                "or another engine");
}

std::int64_t ticks(const Time& t, const BigInt& scale, const SourceLocation& where, const std::string& what) {
    const Time scaled = t * Time(scale);
    const BigInt n = boost::multiprecision::numerator(scaled);  // an integer: scale is a common multiple
    if (n < 0 || n > max_ticks) too_fine(where, what);
    return static_cast<std::int64_t>(n);
}

}  // namespace

IntegerTimes integer_times(const Workload& w) {
    std::vector<Time> all;
    for (const Operation& op : w.ops) {
        for (const Time* t : {&op.time.lo, &op.time.hi, &op.issue.at.lo, &op.issue.at.hi, &op.issue.delay})
            all.push_back(*t);
    }
    const BigInt scale = common_denominator(all);
    const SourceLocation file{w.source, 0, 0};
    if (scale > max_ticks) too_fine(file, "the common denominator of the workload's times");
    IntegerTimes it;
    it.scale = static_cast<std::int64_t>(scale);
    const std::size_t n = w.ops.size();
    it.lo.resize(n), it.hi.resize(n), it.issue_lo.resize(n), it.issue_hi.resize(n), it.delay.resize(n);
    std::int64_t latest_issue = 0, busy = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const Operation& op = w.ops[i];
        const std::string name = "'" + op.name + "'";
        it.lo[i] = ticks(op.time.lo, scale, op.where, name + "'s time");
        it.hi[i] = ticks(op.time.hi, scale, op.where, name + "'s time");
        it.issue_lo[i] = ticks(op.issue.at.lo, scale, op.where, name + "'s issue");
        it.issue_hi[i] = ticks(op.issue.at.hi, scale, op.where, name + "'s issue");
        it.delay[i] = ticks(op.issue.delay, scale, op.where, name + "'s delay");
        latest_issue = std::max(latest_issue, it.issue_hi[i]);
        const std::int64_t count = op.is_kernel() ? op.blocks : 1;
        const auto work = product_within(count, it.hi[i], max_ticks);
        const auto sum = work ? checked_add(busy, *work) : std::nullopt;
        const auto with_delay = sum ? checked_add(*sum, it.delay[i]) : std::nullopt;
        if (!with_delay || *with_delay > max_ticks) too_fine(op.where, "the workload's total busy time up to " + name);
        busy = *with_delay;
    }
    const auto horizon = checked_add(latest_issue, busy);
    if (!horizon || *horizon > max_ticks) too_fine(file, "the workload's horizon (latest issue + all work)");
    it.horizon = *horizon;
    return it;
}

}  // namespace gpuwcrt
