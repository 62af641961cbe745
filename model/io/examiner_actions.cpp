#include "model/io/examiner_actions.hpp"

#include "model/checked_int.hpp"
#include "model/name_policy.hpp"

namespace gpuwcrt {
namespace {

const JsonValue* timed_kernel_parameters(const JsonValue& action) {
    const std::string type = json_string(json_required(action, "type", "a stream_action.so action"), "'type'");
    if (type != "kernel")
        throw InputError(action.where, "a stream_action.so action of type " + quoted_name(type) +
                                           ": its GPU work is not a fixed set of timed kernels (gpuwcrt imports "
                                           "stream_action.so configs made only of \"kernel\" actions)");
    const JsonValue& p = json_object(json_required(action, "parameters", "a kernel action"), "'parameters'");
    json_only_keys(p, {"type", "thread_count", "block_count", "shared_memory_size", "comment", "duration"},
                   "a kernel action's 'parameters'");
    if (const JsonValue* t = p.get("type"); t && json_string(*t, "'type'") != "timer_spin")
        throw InputError(t->where, "a kernel action of type " + quoted_name(t->text) +
                                       ": only timer_spin kernels run for a fixed time (counter_spin runs a "
                                       "number of iterations, whose duration the config does not give)");
    return &p;
}

}  // namespace

std::int64_t examiner_positive(const JsonValue& v, const std::string& what, std::int64_t max) {
    const std::int64_t n = json_integer(v, what);
    if (n <= 0) throw InputError(v.where, what + " must be > 0, got " + v.text);
    if (n > max) throw InputError(v.where, what + " must be at most " + std::to_string(max) + ", got " + v.text);
    return n;
}

std::int64_t examiner_dimension(const JsonValue& v, const std::string& what, std::int64_t max, bool one_dimensional,
                                std::vector<std::string>& notes) {
    if (!v.is_array()) return examiner_positive(v, what, max);
    if (v.items.empty() || v.items.size() > 3)
        throw InputError(v.where, what + " must be a positive integer or an array of 1 to 3 of them");
    std::int64_t product = 1;
    for (std::size_t i = 0; i < v.items.size(); ++i) {
        const std::int64_t n = examiner_positive(v.items[i], what + " entry", max);
        if (one_dimensional && i > 0 && n != 1)
            throw InputError(v.items[i].where, what + " has a dimension " + std::to_string(i + 1) + " of " +
                                                   v.items[i].text +
                                                   ": the plugin launches one-dimensional grids and blocks "
                                                   "(GetSingleBlockAndGridDimensions), so entries after the first "
                                                   "must be 1");
        product = checked_mul(product, n).value_or(max + 1);
        if (product > max)
            throw InputError(v.where, what + " has more than " + std::to_string(max) + " in its product");
    }
    if (v.items.size() > 1 && json_integer(v.items[0], what) != 1)
        notes.push_back(what + " at " + v.where.str() +
                        " is read as written (CUDA's dim3, the product of its entries); the examiner's "
                        "ParseDim3OrInt (cuda_scheduling_examiner_mirror 1c0bd05) reads every entry of an array as "
                        "its first, so it runs this config with other dimensions or refuses it");
    return product;
}

ExaminerStreamActions read_stream_actions(const JsonValue& info) {
    json_object(info, "'additional_info' of stream_action.so");
    json_only_keys(info, {"use_null_stream", "actions", "comment"}, "'additional_info' of stream_action.so");
    ExaminerStreamActions out;
    if (const JsonValue* n = info.get("use_null_stream")) out.null_stream = json_boolean(*n, "'use_null_stream'");
    const JsonValue& list = json_array(json_required(info, "actions", "'additional_info'"), "'actions'");
    if (list.items.empty()) throw InputError(list.where, "stream_action.so needs at least one action");
    for (const JsonValue& a : list.items) {
        json_object(a, "a stream_action.so action");
        json_only_keys(a, {"type", "label", "delay", "parameters", "comment"}, "a stream_action.so action");
        const JsonValue* p = timed_kernel_parameters(a);
        ExaminerKernelAction k;
        k.action = &a;
        k.label = &json_required(a, "label", "a stream_action.so action");
        if (const JsonValue* d = a.get("delay")) {
            k.delay = json_number(*d, "'delay'");
            if (k.delay < 0) throw InputError(d->where, "'delay' must be >= 0");
        }
        k.duration = &json_required(*p, "duration", "a kernel action's 'parameters'");
        k.blocks = p->get("block_count");
        k.threads = p->get("thread_count");
        k.shared = p->get("shared_memory_size");
        for (const JsonValue* d : {k.blocks, k.threads})
            if (d && !d->is_number())
                throw InputError(d->where, "a kernel action's block_count and thread_count are numbers");
        out.kernels.push_back(k);
    }
    return out;
}

}  // namespace gpuwcrt
