#pragma once
// At most `cap` abstract states per key: a state contained in a kept one is dropped, and once
// the bucket is full a new state is merged by hull into the kept state it widens least. Sound
// because the hull contains both (docs/theory/abstraction.md, "Merging"). No state is ever dropped
// for being "pointwise later": that dominance is false on this model (anomalies).
#include <cstdint>
#include <utility>
#include <vector>

namespace gpuwcrt::abstraction {

// Ops (an instance, default-constructible): T hull(const T&, const T&); bool contains(const T&
// outer, const T& inner); std::int64_t distance(const T&, const T&): a cheap estimate of how
// much their hull widens them (it only chooses the merge partner, so any measure is sound).
template <class T, class Ops>
class Bucket {
public:
    // drop_when_full: a beam that keeps the first `cap` states instead of merging.
    explicit Bucket(int cap, bool drop_when_full = false, Ops ops = {})
        : cap_(cap < 1 ? 1 : cap), drop_(drop_when_full), ops_(ops) {}

    void add(T x) {
        for (const T& k : kept_)
            if (ops_.contains(k, x)) return;
        if (static_cast<int>(kept_.size()) < cap_) {
            kept_.push_back(std::move(x));
            return;
        }
        if (drop_) return;
        std::size_t best = 0;
        std::int64_t best_cost = 0;
        for (std::size_t i = 0; i < kept_.size(); ++i) {
            const std::int64_t cost = ops_.distance(kept_[i], x);
            if (i == 0 || cost < best_cost) best = i, best_cost = cost;
        }
        kept_[best] = ops_.hull(kept_[best], x);
        ++merges_;
    }

    std::vector<T> take() {
        std::vector<T> out = std::move(kept_);
        kept_.clear();
        return out;
    }
    const std::vector<T>& kept() const { return kept_; }
    long long merges() const { return merges_; }

private:
    int cap_;
    bool drop_;
    Ops ops_;
    std::vector<T> kept_;
    long long merges_ = 0;
};

}  // namespace gpuwcrt::abstraction
