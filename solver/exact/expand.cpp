#include "solver/exact/expand.hpp"

#include <functional>
#include <stdexcept>

#include "solver/exact/level_search.hpp"
#include "solver/exact/path_hash.hpp"
#include "solver/exact/step.hpp"
#include "solver/exact/varint.hpp"

namespace gpuwcrt::exact {
namespace {

// Appends the child `work` of level `level`, reached from the state with record `from` by the step
// whose decisions are out.choices[choice_at, +choice_len).
void add_child(const ExpandContext& x, const State& work, int level, std::uint32_t from, std::uint64_t path,
               std::uint32_t choice_at, std::uint32_t choice_len, Encoded& enc, std::string& scratch,
               ChunkOutput& out) {
    encode(x.p, work, enc);
    ChunkOutput::Child c;
    c.level = level;
    c.hash = std::hash<std::string_view>{}(enc.key);
    c.now = work.now;
    c.path = path;
    c.from = from;
    c.choice_at = choice_at;
    c.choice_len = choice_len;
    c.bytes_at = static_cast<std::uint32_t>(out.bytes.size());
    c.key_len = static_cast<std::uint32_t>(enc.key.size());
    issue_bytes(enc.issues, scratch);
    c.issues_len = static_cast<std::uint32_t>(scratch.size());
    out.bytes += enc.key;
    out.bytes += scratch;
    if (x.beam) {
        c.lateness = lateness(x.p, work);
        const std::size_t before = out.bytes.size();
        for (int i = 0; i < x.p.n; ++i)
            out.bytes.push_back(work.ops[i].phase == Phase::determined || work.ops[i].phase == Phase::completed ? '1'
                                                                                                                : '0');
        c.set_len = static_cast<std::uint32_t>(out.bytes.size() - before);
    }
    out.children.push_back(c);
}

// The buffers of expand_one, kept across the states of a chunk: a fresh State per state
// (vectors of operations, SMs and queues) made the search a fifth slower.
struct ExpandScratch {
    State work;
    Encoded enc;
    std::string issues;
};

// Every step from the decoded state `base` (record `from`, path `parent`); false when the
// budget stopped it (out.stop says why).
bool expand_one(const ExpandContext& x, int level, const State& base, std::uint32_t from, std::uint64_t parent,
                ExpandScratch& scratch, ChunkOutput& out) {
    State& work = scratch.work;
    DepthFirstDecider d;
    do {
        ++out.steps;
        work = base;
        StepOutcome so;
        try {
            so = step(x.p, work, d, nullptr, &x.budget);
        } catch (const BudgetExhausted& stopped) {
            out.stop = stopped.reason;
            return false;
        }
        if (x.fixed_point && !x.fixed_point->follow(work, so.child)) {
            out.ended = true;
            return false;
        }
        if (so.responses.empty() && !so.child) continue;
        const auto choice_at = static_cast<std::uint32_t>(out.choices.size());
        const auto choice_len = static_cast<std::uint32_t>(d.choice.size());
        const std::uint64_t path = extend_path(parent, d.choice.data(), d.choice.size());
        out.choices.insert(out.choices.end(), d.choice.begin(), d.choice.end());
        for (const auto& [op, r] : so.responses) out.responses.push_back({op, r, path, from, choice_at, choice_len});
        if (!so.child) continue;
        if (x.prune && x.drain.prunable(work, x.best, x.found)) {
            ++out.pruned;
            continue;
        }
        canonicalise(x.p, work);
        const int child_level = x.fixed_point ? level + 1 : work.level();
        if (child_level <= level) throw std::logic_error("exact engine: a macro step determined nothing");
        add_child(x, work, child_level, from, path, choice_at, choice_len, scratch.enc, scratch.issues, out);
    } while (d.advance());
    return true;
}

}  // namespace

void expand_states(const ExpandContext& x, int level, const LevelStore& store, std::size_t first, std::size_t last,
                   ChunkOutput& out) {
    State base;
    ExpandScratch scratch;
    for (std::size_t index = first; index < last; ++index) {
        const LevelStore::Entry& e = store[static_cast<std::uint32_t>(index)];
        if (!e.alive) continue;
        ++out.expansions;
        if (x.budget.expired()) {
            out.stop = x.budget.expiry_reason();
            return;
        }
        decode(x.p, store.key(e), e.now, store.issues(e), base);
        if (x.prune && x.drain.prunable(base, x.best, x.found)) {  // the answers rose since it was stored
            ++out.pruned;
            continue;
        }
        if (!expand_one(x, level, base, e.record, e.path, scratch, out)) return;
    }
}

std::int64_t lateness(const Problem& p, const State& s) {
    const std::int64_t slots = p.w->platform.threads_per_sm / 32;
    std::int64_t sum = 0;
    for (const auto& blocks : s.sm) {
        std::int64_t used = 0;
        for (const RunningBlock& b : blocks) {
            const std::int64_t w = b.threads / 32;
            sum += b.end * w;
            used += w;
        }
        sum += s.now * std::max<std::int64_t>(0, slots - used);
    }
    return sum;
}

void issue_bytes(const std::vector<std::int64_t>& issues, std::string& out) {
    out.clear();
    for (std::int64_t x : issues) put_varint(out, x);
}

void read_issues(std::string_view bytes, std::vector<std::int64_t>& out) {
    out.clear();
    VarintReader r{bytes};
    while (r.at < bytes.size()) out.push_back(r.get());
}

}  // namespace gpuwcrt::exact
