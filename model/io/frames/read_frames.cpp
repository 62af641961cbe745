#include "model/io/frames/read_frames.hpp"

#include <algorithm>

#include "model/name_policy.hpp"

namespace gpuwcrt {
namespace {

Time nonnegative_time(const TomlReader& r, const TomlNode& n, const char* key) {
    const Time t = r.time(n, key);
    if (t < 0) r.fail(n, std::string("'") + key + "' must be >= 0 (got " + human_string(t) + ")");
    return t;
}

std::string arrival_text(const Stream& s) {
    const std::string name = "stream '" + s.name + "'";
    switch (s.arrival.kind) {
        case Arrival::Kind::none:
            return name + ", which runs once";
        case Arrival::Kind::periodic:
            return name + ", period " + human_string(s.arrival.period);
        case Arrival::Kind::sporadic:
            return name + ", sporadic";
    }
    return name;
}

std::string pairing_problem(const Workload& w, const Operation& op, const Operation& target) {
    const Stream &a = w.streams[op.stream], &b = w.streams[target.stream];
    std::string why =
        "`wait` links two streams that both run once (the one frame) or that are both periodic (the same "
        "frame k for the same period, the most recent frame issued before the waiting one across rates)";
    if (a.arrival.kind == Arrival::Kind::sporadic || b.arrival.kind == Arrival::Kind::sporadic)
        why += "; sporadic frames are released independently of each other and pair nothing";
    return "'" + op.name + "' (" + arrival_text(a) + ") cannot wait on '" + target.name + "' (" + arrival_text(b) +
           "): " + why;
}

// Edges "v cannot complete before u": stream order (v follows u) and wait (v waits on u).
struct Edge {
    int to;
    int wait_entry;  // index in w.ops[to].wait, or -1 for stream order
};

std::vector<std::vector<Edge>> successors(const Workload& w) {
    std::vector<std::vector<Edge>> out(w.ops.size());
    std::vector<int> last(w.streams.size(), -1);
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        int& prev = last[w.ops[i].stream];
        if (prev >= 0) out[prev].push_back({static_cast<int>(i), -1});
        prev = static_cast<int>(i);
        for (std::size_t j = 0; j < w.ops[i].wait.size(); ++j)
            out[w.ops[i].wait[j]].push_back({static_cast<int>(i), static_cast<int>(j)});
    }
    return out;
}

// The cycle closed by the edge from `path.back()` to path[from]: its text, and the location of
// one of its waits (stream order alone has no cycle, so every cycle holds a wait).
[[noreturn]] void report_cycle(const Workload& w, const std::vector<std::vector<SourceLocation>>& where,
                               const std::vector<std::pair<int, Edge>>& path, std::size_t from) {
    std::string chain;
    const SourceLocation* at = nullptr;
    for (std::size_t i = from; i < path.size(); ++i) {
        const auto& [u, e] = path[i];
        const Operation &a = w.ops[u], &b = w.ops[e.to];
        chain += chain.empty() ? "" : ", ";
        if (e.wait_entry < 0) {
            chain += "'" + b.name + "' follows '" + a.name + "' in stream '" + w.streams[b.stream].name + "'";
        } else {
            chain += "'" + b.name + "' waits on '" + a.name + "'";
            if (!at) at = &where[e.to][e.wait_entry];
        }
    }
    throw InputError(*at, "`wait` closes a cycle, so none of these operations could ever start: " + chain);
}

// Depth-first, without recursion: a stream of 10^5 operations is a path of 10^5 edges.
void check_acyclic(const Workload& w, const std::vector<std::vector<SourceLocation>>& where) {
    const std::vector<std::vector<Edge>> succ = successors(w);
    enum : char { white, grey, black };
    std::vector<char> colour(w.ops.size(), white);
    std::vector<std::size_t> on_path(w.ops.size(), 0);  // position in `path` of a grey node
    std::vector<std::pair<int, Edge>> path;             // (node, the edge taken out of it)
    std::vector<std::size_t> next(w.ops.size(), 0);     // next successor to try
    for (std::size_t root = 0; root < w.ops.size(); ++root) {
        if (colour[root] != white) continue;
        colour[root] = grey;
        on_path[root] = 0;
        path.push_back({static_cast<int>(root), {-1, -1}});
        while (!path.empty()) {
            const int u = path.back().first;
            if (next[u] == succ[u].size()) {
                colour[u] = black;
                path.pop_back();
                continue;
            }
            const Edge e = succ[u][next[u]++];
            path.back().second = e;
            if (colour[e.to] == grey) report_cycle(w, where, path, on_path[e.to]);
            if (colour[e.to] == black) continue;
            colour[e.to] = grey;
            on_path[e.to] = path.size();
            path.push_back({e.to, {-1, -1}});
        }
    }
}

}  // namespace

Arrival read_arrival(const TomlReader& r, const TomlTable& t) {
    const TomlNode* period = t.get("period");
    const TomlNode* sporadic = t.get("min_interarrival");
    Arrival a;
    if (period && sporadic)
        r.fail(*sporadic, "give either 'period' (a periodic stream) or 'min_interarrival' (a sporadic one), not both");
    if (!period && !sporadic) {
        for (const char* key : {"offset", "jitter"})
            if (const TomlNode* n = t.get(key))
                r.fail(*n, std::string("'") + key +
                               "' needs 'period' or 'min_interarrival': a stream without them runs once, at 0");
        return a;
    }
    const char* key = period ? "period" : "min_interarrival";
    const TomlNode& n = period ? *period : *sporadic;
    a.kind = period ? Arrival::Kind::periodic : Arrival::Kind::sporadic;
    a.period = r.time(n, key);
    if (a.period <= 0) r.fail(n, std::string("'") + key + "' must be > 0 (got " + human_string(a.period) + ")");
    if (const TomlNode* o = t.get("offset")) a.offset = nonnegative_time(r, *o, "offset");
    if (const TomlNode* j = t.get("jitter")) a.jitter = nonnegative_time(r, *j, "jitter");
    return a;
}

void read_waits(const TomlReader& r, const std::vector<const TomlTable*>& tables,
                const std::unordered_map<std::string, int>& index, Workload& w) {
    const int null_stream = w.null_stream();
    std::vector<std::vector<SourceLocation>> where(w.ops.size());
    bool any = false;
    for (std::size_t i = 0; i < w.ops.size(); ++i) {
        const TomlNode* n = tables[i]->get("wait");
        if (!n) continue;
        Operation& op = w.ops[i];
        for (const TomlNode& x : r.array(*n, "wait")) {
            const std::string name = r.name(x, "wait", "wait: name");
            const auto found = index.find(name);
            if (found == index.end()) r.fail(x, "'" + op.name + "' waits on unknown operation " + quoted_name(name));
            const int target = found->second;
            if (target == static_cast<int>(i)) r.fail(x, "'" + op.name + "' waits on itself");
            if (std::find(op.wait.begin(), op.wait.end(), target) != op.wait.end())
                r.fail(x, "'" + op.name + "' names '" + name + "' twice in 'wait'");
            const Arrival &from = w.streams[op.stream].arrival, &to = w.streams[w.ops[target].stream].arrival;
            if (!frames_pair(from, to) && !waits_across_rates(from, to))
                r.fail(x, pairing_problem(w, op, w.ops[target]));
            if (null_stream >= 0)
                r.fail(x, "`wait` in a workload with a NULL stream ('" + w.streams[null_stream].name +
                              "') is not supported: the NULL stream's implicit synchronisation (N1, N2) together "
                              "with a wait can hold each other back forever");
            op.wait.push_back(target);
            where[i].push_back(r.where(x));
            any = true;
        }
    }
    if (any) check_acyclic(w, where);
}

}  // namespace gpuwcrt
