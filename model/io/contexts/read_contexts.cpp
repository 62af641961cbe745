#include "model/io/contexts/read_contexts.hpp"

#include <unordered_map>

#include "model/contexts/contexts.hpp"
#include "model/io/array_of_tables.hpp"
#include "model/name_policy.hpp"

namespace gpuwcrt {

void read_contexts(const TomlReader& r, Workload& w) {
    const TomlArray* a = array_of_tables(r, "context");
    if (!a) return;
    std::unordered_map<std::string, int> seen;
    for (const TomlNode& node : *a) {
        const TomlTable& t = *node.as_table();
        r.only_keys(t, {"name", "timeslice"}, "[[context]]");
        GpuContext c;
        c.where = r.where(t);
        c.name = r.name(r.required(t, "name", "[[context]]"), "name", "context name");
        const TomlNode& slice = r.required(t, "timeslice", "[[context]]");
        c.timeslice = r.time(slice, "timeslice");
        if (c.timeslice.sign() <= 0) r.fail(slice, "'timeslice' must be > 0, got " + human_string(c.timeslice));
        if (auto [first, fresh] = seen.try_emplace(c.name, static_cast<int>(w.contexts.size())); !fresh)
            throw InputError(c.where, "context " + quoted_name(c.name) + " is declared twice (first at " +
                                          w.contexts[first->second].where.str() + ")");
        w.contexts.push_back(std::move(c));
    }
}

int read_stream_context(const TomlReader& r, const TomlTable& t, const Workload& w) {
    const TomlNode* n = t.get("context");
    if (w.contexts.empty()) {
        if (n) r.fail(*n, "'context' names a GPU context, but the file declares none: add [[context]] tables");
        return 0;
    }
    if (!n)
        r.fail(t,
               "[[stream]] without 'context': with [[context]] tables every stream names one of " + context_names(w));
    const std::string name = r.name(*n, "context", "context");
    for (std::size_t i = 0; i < w.contexts.size(); ++i)
        if (w.contexts[i].name == name) return static_cast<int>(i);
    r.fail(*n, "unknown context " + quoted_name(name) + " (declared: " + context_names(w) + ")");
}

void settle_context_switch(const TomlReader& r, Workload& w) {
    const TomlNode* p = r.root().get("platform");
    const TomlNode* n = p ? r.table(*p, "platform").get("context_switch") : nullptr;
    if (n) {
        w.platform.context_switch = r.time(*n, "context_switch");
        if (w.platform.context_switch.sign() < 0)
            r.fail(*n, "'context_switch' must be >= 0, got " + human_string(w.platform.context_switch));
        return;
    }
    if (!w.sliced()) return;
    const std::optional<Time> d = default_context_switch(w.time_unit);
    if (!d)
        throw InputError(w.contexts[1].where,
                         "the GPU switches between these contexts, but the file gives no [platform] context_switch "
                         "and no time_unit to state the 0.2 ms default in: give either");
    w.platform.context_switch = *d;
    w.assumptions.push_back(context_switch_assumption(w));
}

}  // namespace gpuwcrt
