#include "solver/exact/witness_path.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include "solver/exact/step.hpp"

namespace gpuwcrt::exact {
namespace {

class ReplayDecider : public Decider {
public:
    explicit ReplayDecider(const std::vector<int>* choices) : choices_(choices) {}
    int pick(int options) override {
        const int c = choices_ && at_ < choices_->size() ? (*choices_)[at_] : 0;
        ++at_;
        if (c >= options) throw std::logic_error("exact engine: a recorded decision is out of range on replay");
        return c;
    }

private:
    const std::vector<int>* choices_;
    std::size_t at_ = 0;
};

// Launch order: by issue instant, then (eager) the order chosen at issue, or (lazy) the join
// instant and the order in which the members of a group became heads. docs/theory/exact-engine.md
// shows that this total order respects stream order, issue order and every decided relation.
class Recorder : public Observer {
public:
    Recorder(const Problem& p) : p_(p), issue_(p.n, -1), join_(p.n, -1), pick_(p.n, -1), launch_(p.n, -1), sm_(p.n) {
        position_to_sm.resize(p.w->platform.sms);
        std::iota(position_to_sm.begin(), position_to_sm.end(), 0);
    }
    void issued(int op, std::int64_t now) override {
        issue_[op] = now;
        launch_[op] = counter_++;
    }
    void joined(int op, std::int64_t now) override { join_[op] = now; }
    void picked(int op) override { pick_[op] = counter_++; }
    void block(int kernel, int sm_position) override { sm_[kernel].push_back(position_to_sm[sm_position]); }
    void timed(int op, std::int64_t duration) override {
        if (p_.ranges) time_[op].push_back(p_.times.to_time(duration));
    }

    WitnessScenario witness() const {
        WitnessScenario x;
        x.launch_order.resize(p_.n);
        std::iota(x.launch_order.begin(), x.launch_order.end(), 0);
        auto key = [&](int op) {
            return p_.eager ? std::tuple(issue_[op], launch_[op], 0L) : std::tuple(issue_[op], join_[op], pick_[op]);
        };
        std::sort(x.launch_order.begin(), x.launch_order.end(), [&](int a, int b) { return key(a) < key(b); });
        x.sm = sm_;
        if (p_.ranges) {
            x.block_time = time_;
            x.issue.assign(p_.n, std::nullopt);
            for (int op = 0; op < p_.n; ++op) {
                const IssueSpec& is = p_.w->ops[op].issue;
                // An instant past the window's end is the predecessor's issue: the simulator's
                // default (the window's lower end, then max with it) gives it.
                if (is.kind == IssueSpec::Kind::at && p_.times.issue_lo[op] < p_.times.issue_hi[op] &&
                    issue_[op] <= p_.times.issue_hi[op])
                    x.issue[op] = p_.times.to_time(issue_[op]);
            }
        }
        return x;
    }

    std::vector<int> position_to_sm;

private:
    const Problem& p_;
    std::vector<std::int64_t> issue_, join_;
    std::vector<long> pick_, launch_;
    std::vector<std::vector<int>> sm_;
    std::vector<std::vector<Time>> time_ = std::vector<std::vector<Time>>(p_.n);
    long counter_ = 0;
};

}  // namespace

WitnessScenario reconstruct_witness(const Problem& p, const std::vector<std::vector<int>>& steps) {
    State s = initial_state(p);
    Recorder rec(p);
    auto run = [&](const std::vector<int>* choices) {
        ReplayDecider d(choices);
        const StepOutcome out = step(p, s, d, &rec);
        const std::vector<int> order = canonicalise(p, s);
        std::vector<int> mapped(order.size());
        for (std::size_t i = 0; i < order.size(); ++i) mapped[i] = rec.position_to_sm[order[i]];
        rec.position_to_sm = mapped;
        return out.child;
    };
    for (const auto& choices : steps)
        if (!run(&choices)) throw std::logic_error("exact engine: a recorded path ends early on replay");
    while (run(nullptr)) {}
    return rec.witness();
}

}  // namespace gpuwcrt::exact
