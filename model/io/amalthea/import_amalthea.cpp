#include "model/io/amalthea/import_amalthea.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "model/checked_int.hpp"
#include "model/input_limits.hpp"
#include "model/io/amalthea/gpu_context.hpp"
#include "model/io/amalthea/graphs.hpp"
#include "model/io/amalthea/values.hpp"
#include "model/io/read_input.hpp"
#include "model/name_policy.hpp"
#include "model/validate.hpp"

namespace gpuwcrt {
namespace {

using namespace amalthea;

const std::string namespace_prefix = "http://app4mc.eclipse.org/amalthea/";

// One stream of the workload: a task's calls, or a runnable no task calls (its own stream,
// one kernel issued at 0, as the thesis' APP4MC code analysed the bare runnable list).
struct StreamPlan {
    std::string name;
    pugi::xml_node where;
    std::vector<pugi::xml_node> calls;
    bool periodic = false;
    Time offset = 0, recurrence = 0;  // ms
    TimeRange jitter{0, 0};           // ms
};

class AmaltheaImporter {
public:
    AmaltheaImporter(const XmlSource& src, const AmaltheaImportOptions& options) : src_(src), options_(options) {}

    AmaltheaImport run() {
        check_root();
        const pugi::xml_node sw = src_.root().child("swModel");
        if (!sw) throw InputError(src_.where(src_.root()), "the model has no <swModel>, so no runnable to import");
        index(sw, "runnables", runnables_);
        index(sw, "tasks", tasks_);
        index(src_.root().child("stimuliModel"), "stimuli", stimuli_);
        gpu_ = read_gpu_context(src_);
        std::vector<StreamPlan> plans = plan_streams(sw);
        physical_ = gpu_.frequency_hz.has_value();
        for (const StreamPlan& p : plans) physical_ = physical_ || p.periodic;
        tick_ = tick_duration();
        Workload& w = out_.workload;
        w.source = src_.name();
        w.time_unit = physical_ ? "ms" : "";
        emit(plans);
        validate_workload(w);
        return std::move(out_);
    }

private:
    void check_root() {
        const pugi::xml_node root = src_.root();
        if (local_name(root) != "Amalthea")
            throw InputError(src_.where(root), "the root element is <" + std::string(root.name()) +
                                                   ">, not an AMALTHEA model (<am:Amalthea>)");
        for (const pugi::xml_attribute& a : root.attributes()) {
            const std::string v = a.value();
            if (v.rfind(namespace_prefix, 0) == 0) out_.model_version = v.substr(namespace_prefix.size());
        }
        const std::string& v = out_.model_version;
        if (v.empty())
            throw InputError(src_.where(root), "the root element does not declare the AMALTHEA namespace " +
                                                   namespace_prefix + "<version>");
        if (v.rfind("0.", 0) == 0 && v.rfind("0.9", 0) != 0)
            throw InputError(src_.where(root), "AMALTHEA " + v +
                                                   " is older than 0.9, the oldest form gpuwcrt reads: "
                                                   "migrate the model with APP4MC first");
    }

    void index(const pugi::xml_node& parent, const char* element, std::map<std::string, pugi::xml_node>& out) {
        for (const pugi::xml_node& n : parent.children(element)) {
            const std::string name = src_.required(n, "name");
            if (!out.emplace(name, n).second)
                throw InputError(src_.where(n), "two " + std::string(element) + " are named " + quoted_name(name) +
                                                    ": references by name would be ambiguous");
        }
    }

    std::vector<StreamPlan> plan_streams(const pugi::xml_node& sw) {
        std::vector<StreamPlan> plans;
        std::set<std::string> called;
        for (const pugi::xml_node& t : sw.children("tasks")) {
            const std::string name = t.attribute("name").value();
            const auto& gpu = gpu_.gpu_tasks;
            if (gpu_.has_mapping && std::find(gpu.begin(), gpu.end(), name) == gpu.end()) continue;
            StreamPlan p{name, t, task_calls(src_, t, runnables_)};
            for (const pugi::xml_node& r : p.calls) called.insert(r.attribute("name").value());
            stimulus(t, p);
            plans.push_back(std::move(p));
        }
        if (gpu_.has_mapping) {
            for (const std::string& t : gpu_.other_tasks) out_.notes.push_back("task '" + t + "' is not on the GPU");
            return plans;
        }
        for (const pugi::xml_node& r : sw.children("runnables"))
            if (!called.count(r.attribute("name").value())) plans.push_back({r.attribute("name").value(), r, {r}});
        if (plans.empty()) throw InputError(src_.where(sw), "the software model has no runnable");
        return plans;
    }

    void stimulus(const pugi::xml_node& task, StreamPlan& p) {
        const std::vector<std::string> refs = split_references(task.attribute("stimuli").value());
        if (refs.empty()) return;
        if (refs.size() > 1)
            throw InputError(src_.where(task),
                             "task " + quoted_name(p.name) + " has " + std::to_string(refs.size()) +
                                 " stimuli; gpuwcrt imports a task activated by one periodic stimulus");
        const auto ref = parse_reference(refs[0]);
        const auto it = ref ? stimuli_.find(ref->name) : stimuli_.end();
        if (it == stimuli_.end())
            throw InputError(src_.where(task),
                             "stimulus " + quoted_name(refs[0].substr(0, 80)) + " is not in the model");
        const pugi::xml_node s = it->second;
        if (xsi_type(s) != "PeriodicStimulus")
            throw InputError(src_.where(s), "stimulus of type " + quoted_name(xsi_type(s)) +
                                                " is not supported: gpuwcrt imports periodic tasks (PeriodicStimulus) "
                                                "and tasks without a stimulus (one activation at 0)");
        p.periodic = true;
        if (const pugi::xml_node o = s.child("offset")) p.offset = time_ms(src_, o);
        const pugi::xml_node rec = s.child("recurrence");
        if (!rec) throw InputError(src_.where(s), "a PeriodicStimulus needs a <recurrence>");
        p.recurrence = time_ms(src_, rec);
        if (p.recurrence <= 0 || p.offset < 0)
            throw InputError(src_.where(s), "a PeriodicStimulus needs recurrence > 0 and offset >= 0");
        if (const pugi::xml_node j = s.child("jitter")) p.jitter = time_range_ms(src_, j);
        if (p.jitter.lo < 0) throw InputError(src_.where(s), "a negative release jitter would issue before the period");
        if (s.child("minDistance"))
            out_.notes.push_back("stimulus '" + it->first +
                                 "': minDistance is not modelled; issue windows allow "
                                 "every jitter, a superset of the releases it permits");
    }

    Time tick_duration() {
        if (gpu_.frequency_hz && options_.tick_time)
            throw option_error("--tick-time", "the model fixes the tick duration by the GPU clock (" +
                                                  gpu_.frequency_source + "); remove --tick-time");
        if (gpu_.frequency_hz) {
            out_.notes.push_back("one tick = 1 / " + exact_string(*gpu_.frequency_hz) + " Hz (" +
                                 gpu_.frequency_source + ")");
            return Time(1000) / *gpu_.frequency_hz;
        }
        if (!options_.tick_time)
            throw InputError(src_.where(src_.root()),
                             "the model gives no GPU frequency (a ProcessingUnit with a ProcessingUnitDefinition of "
                             "puType=\"GPU\" and a FrequencyDomain), so a tick has no duration: give --tick-time T "
                             "(one tick in " +
                                 std::string(physical_ ? "milliseconds, the unit of the model's stimuli)"
                                                       : "the workload's time unit)"));
        if (*options_.tick_time <= 0) throw option_error("--tick-time", "must be > 0");
        return *options_.tick_time;
    }

    Operation kernel(const pugi::xml_node& r, const std::string& name, int stream) const {
        Operation k;
        k.kind = OpKind::kernel;
        k.name = name;
        k.stream = stream;
        k.where = src_.where(r);
        k.blocks = *required_property(r, "GridSize", 1, limits::max_blocks);
        k.threads = integer_property(src_, r, "BlockSize", 1, limits::max_resource).value_or(options_.threads);
        k.shared_mem = integer_property(src_, r, "SharedMemory", 0, limits::max_resource).value_or(0);
        k.registers = integer_property(src_, r, "Registers", 0, limits::max_resource).value_or(0);
        const TimeRange ticks = runnable_ticks(src_, r, gpu_.gpu_definitions);
        k.time = {ticks.lo * tick_, ticks.hi * tick_};
        return k;
    }

    std::optional<std::int64_t> required_property(const pugi::xml_node& r, const char* key, std::int64_t min,
                                                  std::int64_t max) const {
        auto v = integer_property(src_, r, key, min, max);
        if (!v)
            throw InputError(src_.where(r), "runnable " + quoted_name(r.attribute("name").value()) +
                                                " has no custom property '" + key +
                                                "' (the kernel's number of blocks, an IntegerObject)");
        return v;
    }

    void emit(const std::vector<StreamPlan>& plans) {
        Workload& w = out_.workload;
        for (const StreamPlan& p : plans) {
            check_name(src_.where(p.where), p.name, "stream (task or runnable) name");
            w.streams.push_back({p.name, Priority::low, false, src_.where(p.where), {}});
        }
        for (std::int64_t k = 0; k < options_.frames; ++k)
            for (std::size_t s = 0; s < plans.size(); ++s)
                if (k == 0 || plans[s].periodic) job(plans[s], static_cast<int>(s), k);
    }

    void job(const StreamPlan& p, int stream, std::int64_t k) {
        Workload& w = out_.workload;
        const Time release = p.offset + Time(k) * p.recurrence;
        for (std::size_t i = 0; i < p.calls.size(); ++i) {
            const pugi::xml_node r = p.calls[i];
            const std::string base = r.attribute("name").value();
            check_name(src_.where(r), base, "runnable name");
            std::string name = options_.frames > 1 && p.periodic ? base + " [" + std::to_string(k + 1) + "]" : base;
            for (int n = 2; names_.count(name); ++n) name = base + " #" + std::to_string(n);
            names_.insert(name);
            Operation op = kernel(r, name, stream);
            if (i == 0) op.issue.at = {release + p.jitter.lo, release + p.jitter.hi};
            else op.issue.kind = IssueSpec::Kind::with_previous;
            if (p.periodic && i + 1 == p.calls.size()) op.deadline = p.recurrence;
            op.position = stream_length_[stream]++;
            total_blocks_ = checked_add(total_blocks_, op.blocks).value_or(limits::max_total + 1);
            if (total_blocks_ > limits::max_total)
                throw InputError(op.where, "the workload would have more than 2^62 blocks; lower --frames");
            w.ops.push_back(std::move(op));
        }
    }

    const XmlSource& src_;
    const AmaltheaImportOptions& options_;
    std::map<std::string, pugi::xml_node> runnables_, tasks_, stimuli_;
    GpuContext gpu_;
    bool physical_ = false;
    Time tick_ = 1;
    std::int64_t total_blocks_ = 0;
    std::set<std::string> names_;
    std::map<int, int> stream_length_;
    AmaltheaImport out_;
};

}  // namespace

AmaltheaImport import_amalthea_text(const std::string& text, const std::string& name,
                                    const AmaltheaImportOptions& options) {
    if (options.frames < 1) throw option_error("--frames", "must be at least 1");
    const XmlSource src(text, name);
    return AmaltheaImporter(src, options).run();
}

AmaltheaImport import_amalthea_file(const std::string& path, const AmaltheaImportOptions& options) {
    return import_amalthea_text(read_input_file(path), path == "-" ? "<stdin>" : path, options);
}

}  // namespace gpuwcrt
