#include "model/integer_time.hpp"

#include <algorithm>
#include <string>

#include "model/checked_int.hpp"

namespace gpuwcrt {

bool fits_ticks(const BigInt& n) { return n >= 0 && n <= max_ticks; }

std::optional<std::int64_t> ScaledTimes::fitting(std::size_t i) const {
    if (!fits_ticks(ticks[i])) return std::nullopt;
    return static_cast<std::int64_t>(ticks[i]);
}

ScaledTimes scale_times(const std::vector<Time>& times) {
    ScaledTimes out;
    out.scale = common_denominator(times);
    out.ticks.reserve(times.size());
    // Integer operations only: scale is a multiple of every denominator. In machine integers
    // where they fit (nearly always), else in BigInt.
    const std::optional<std::int64_t> scale = small_int(out.scale);
    for (const Time& t : times) {
        const std::optional<std::int64_t> n = small_int(numerator_ref(t)), d = small_int(denominator_ref(t));
        std::int64_t ticks = 0;
        if (scale && n && d && !__builtin_mul_overflow(*n, *scale / *d, &ticks)) out.ticks.emplace_back(ticks);
        else out.ticks.push_back(numerator_ref(t) * (out.scale / denominator_ref(t)));
    }
    return out;
}

std::vector<Time> workload_times(const Workload& w) {
    std::vector<Time> all;
    all.reserve(7 * w.ops.size());
    const TimeRange none{0, 0};
    for (const Operation& op : w.ops) {
        const TimeRange& release = op.issue.release ? *op.issue.release : none;
        for (const Time* t :
             {&op.time.lo, &op.time.hi, &op.issue.at.lo, &op.issue.at.hi, &op.issue.delay, &release.lo, &release.hi})
            all.push_back(*t);
    }
    return all;
}

namespace {

[[noreturn]] void too_fine(const SourceLocation& where, const std::string& what) {
    throw InputError(where, what +
                                " does not fit the explicit engines' integer time (at most 2^50 "
                                "ticks of 1/LCM-of-denominators time units); use fewer decimal places "
                                "or another engine");
}

}  // namespace

IntegerTimes integer_times(const Workload& w) {
    const ScaledTimes scaled = scale_times(workload_times(w));
    const SourceLocation file{w.source, 0, 0};
    if (!fits_ticks(scaled.scale)) too_fine(file, "the common denominator of the workload's times");
    IntegerTimes it;
    it.scale = static_cast<std::int64_t>(scaled.scale);
    const std::size_t n = w.ops.size();
    it.lo.resize(n), it.hi.resize(n), it.issue_lo.resize(n), it.issue_hi.resize(n), it.delay.resize(n);
    it.release_lo.resize(n), it.release_hi.resize(n);
    std::int64_t latest_issue = 0, busy = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const Operation& op = w.ops[i];
        const std::string name = "'" + op.name + "'";
        auto ticks = [&](OpTime field, const std::string& what) {
            const auto v = scaled.fitting(workload_time_index(i, field));
            if (!v) too_fine(op.where, name + what);
            return *v;
        };
        it.lo[i] = ticks(OpTime::lo, "'s time");
        it.hi[i] = ticks(OpTime::hi, "'s time");
        it.issue_lo[i] = ticks(OpTime::issue_lo, "'s issue");
        it.issue_hi[i] = ticks(OpTime::issue_hi, "'s issue");
        it.delay[i] = ticks(OpTime::delay, "'s delay");
        it.release_lo[i] = ticks(OpTime::release_lo, "'s frame release");
        it.release_hi[i] = ticks(OpTime::release_hi, "'s frame release");
        // An after_stream_idle in a frame is issued at max(release, idle) + delay: by the
        // release's end plus the delay, or after the work before it plus the delay.
        latest_issue = std::max({latest_issue, it.issue_hi[i], it.release_hi[i]});
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
