#include "model/io/amalthea/import_amalthea.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "model/checked_int.hpp"
#include "model/contexts/contexts.hpp"
#include "model/input_limits.hpp"
#include "model/io/amalthea/activation.hpp"
#include "model/io/amalthea/cpu_side.hpp"
#include "model/io/amalthea/gpu_context.hpp"
#include "model/io/amalthea/gpu_scheduler.hpp"
#include "model/io/amalthea/graphs.hpp"
#include "model/io/amalthea/requirements.hpp"
#include "model/io/amalthea/values.hpp"
#include "model/io/read_input.hpp"
#include "model/name_policy.hpp"
#include "model/validate.hpp"

// In namespace amalthea, not by a using-directive, which a unity batch would carry into the
// files after this one.
namespace gpuwcrt::amalthea {
namespace {

const std::string namespace_prefix = "http://app4mc.eclipse.org/amalthea/";

// The waves in which kernel k runs alone on an idle GPU (every SM empty, every block of the same
// time): as many blocks as fit on one SM at once, on every SM, start together and end together,
// then the next as many. A model's Ticks are the kernel's measured time, so its block time is
// Ticks / waves: simulated alone it takes exactly its Ticks whatever grid and block size it is
// given. A block that fits no SM counts one wave, and validation refuses the kernel.
std::int64_t kernel_waves(const Operation& k, const Platform& p) {
    const std::int64_t per_sm = SmUsage{}.room_for(k.demand(), p);
    if (per_sm < 1) return 1;
    const std::int64_t at_once = per_sm * p.sms;
    return (k.blocks + at_once - 1) / at_once;
}

// One stream of the workload: a task's calls, or a runnable no task calls (its own stream,
// one kernel issued at 0, as the thesis' APP4MC code analysed the bare runnable list).
struct StreamPlan {
    std::string name;
    pugi::xml_node where;
    std::vector<pugi::xml_node> calls;
    Activation activation;
};

class AmaltheaImporter {
public:
    AmaltheaImporter(const XmlSource& src, const AmaltheaImportOptions& options) : src_(src), options_(options) {}

    AmaltheaImport run() {
        check_root();
        const pugi::xml_node sw = src_.root().child("swModel");
        if (!sw) throw InputError(src_.where(src_.root()), "the model has no <swModel>, so no runnable to import");
        index(sw, "runnables", model_.runnables);
        index(sw, "tasks", model_.tasks);
        index(sw, "labels", model_.labels);
        index(src_.root().child("stimuliModel"), "stimuli", model_.stimuli);
        software_only(sw);
        gpu_ = read_gpu_context(src_);
        if (options_.cpu_side && gpu_.has_mapping) cpu_left_out_ = cpu_side_left_out(src_, gpu_);
        read_scheduling();
        std::vector<StreamPlan> plans = plan_streams(sw);
        physical_ = gpu_.frequency_hz.has_value();
        for (const StreamPlan& p : plans) physical_ = physical_ || p.activation.arrival.repeats();
        Workload& w = out_.workload;
        w.source = src_.name();
        w.time_unit = physical_ ? "ms" : "";
        emit(plans);
        requirements(import_requirements(src_, model_, w));
        check_options();
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
        if (v.rfind("0.", 0) == 0 && v.rfind("0.9.", 0) != 0)
            throw InputError(src_.where(root), "AMALTHEA " + v +
                                                   " is older than 0.9.0, the oldest form gpuwcrt reads: "
                                                   "migrate the model with APP4MC first");
        if (v.rfind("0.9.", 0) != 0 && v.rfind("1.", 0) != 0 && v.rfind("2.", 0) != 0)
            throw InputError(src_.where(root), "AMALTHEA " + v +
                                                   " is a model version gpuwcrt does not read: it reads 0.9.x, "
                                                   "1.x and 2.x (namespace " +
                                                   namespace_prefix + "<version>)");
    }

    // Without a hardware model only the runnables' own GridSize (the thesis' APP4MC reading) or
    // the user's --grid says that a runnable is a kernel; with neither, nothing in the model runs
    // on a GPU, and that is said before anything else is asked.
    void software_only(const pugi::xml_node& sw) const {
        if (src_.root().child("hwModel") || !options_.grid.empty()) return;
        for (const pugi::xml_node& r : sw.children("runnables"))
            if (integer_property(src_, r, "GridSize", 1, limits::max_blocks)) return;
        throw InputError(src_.where(src_.root()),
                         "the model is software only: it has no hardware model (<hwModel>) and no runnable has "
                         "the custom property GridSize, so nothing in it runs on a GPU. Add a hardware model "
                         "with a GPU (a ProcessingUnit whose ProcessingUnitDefinition has puType=\"GPU\") and "
                         "a mapping of the GPU tasks to it; or give each runnable that is a kernel its GridSize "
                         "(or --grid RUNNABLE=N)");
    }

    // The GPU scheduler of a mapped model decides how the GPU tasks share the GPU; one process
    // is the reading of a model that has none, or the user's choice, named in the assumptions.
    void read_scheduling() {
        if (options_.one_process) {
            out_.notes.push_back(
                "--one-process: the GPU tasks are streams of one process (one CUDA context) sharing the SMs; "
                "the model's GPU scheduler, if any, is not applied");
            return;
        }
        if (!gpu_.has_mapping) {
            out_.notes.push_back(
                "the model has no mapping and so no GPU scheduler: its streams are those of one process (one "
                "CUDA context), as the thesis' APP4MC code read a model");
            return;
        }
        sched_ = read_gpu_scheduling(src_, gpu_);
        out_.notes.push_back("GPU scheduler " + quoted_name(sched_.scheduler) +
                             ": one time-sliced context per GPU task, slices within [" +
                             human_string(sched_.allowed.lo) + ", " + human_string(sched_.allowed.hi) + "] ms");
    }

    void index(const pugi::xml_node& parent, const char* element, std::map<std::string, pugi::xml_node>& out) {
        for (const pugi::xml_node& n : parent.children(element)) {
            const std::string name = src_.required(n, "name");
            if (!out.emplace(name, n).second)
                throw InputError(src_.where(n), "two " + std::string(element) + " are named " + quoted_name(name) +
                                                    ": references by name would be ambiguous");
        }
    }

    // A task on the GPU is a stream of its calls; its OS event items synchronise it with the CPU
    // task that offloads it and change nothing on the GPU.
    std::vector<pugi::xml_node> gpu_calls(const pugi::xml_node& task) {
        std::vector<pugi::xml_node> calls;
        const std::string name = task.attribute("name").value();
        for (const TaskStep& s : task_steps(src_, task, model_.runnables)) {
            if (s.kind == TaskStep::Kind::call) calls.push_back(s.runnable);
            else if (s.kind == TaskStep::Kind::wait_event)
                throw InputError(src_.where(s.node), "a WaitEvent in task " + quoted_name(name) +
                                                         " on the GPU: its GPU work would wait for a CPU task "
                                                         "mid-frame, which gpuwcrt does not model");
            else if (s.kind == TaskStep::Kind::trigger)
                throw InputError(src_.where(s.node),
                                 "an InterProcessTrigger in task " + quoted_name(name) +
                                     ", which is imported as GPU work: gpuwcrt reads a trigger only in a CPU task "
                                     "that offloads to the GPU (give the model a mapping that places it on a CPU)");
            else events_ = true;
        }
        if (calls.empty()) throw InputError(src_.where(task), "task " + quoted_name(name) + " calls no runnable");
        return calls;
    }

    std::vector<StreamPlan> plan_streams(const pugi::xml_node& sw) {
        std::vector<StreamPlan> plans;
        std::set<std::string> called;
        for (const pugi::xml_node& t : sw.children("tasks")) {
            const std::string name = t.attribute("name").value();
            const auto& gpu = gpu_.gpu_tasks;
            if (gpu_.has_mapping && std::find(gpu.begin(), gpu.end(), name) == gpu.end()) continue;
            StreamPlan p{name, t, gpu_calls(t), read_activation(src_, model_, gpu_, t)};
            for (const pugi::xml_node& r : p.calls) called.insert(r.attribute("name").value());
            for (const std::string& n : p.activation.notes) out_.notes.push_back(n);
            if (!p.activation.window_note.empty() && !cpu_side()) out_.notes.push_back(p.activation.window_note);
            plans.push_back(std::move(p));
        }
        if (events_)
            out_.notes.push_back(
                "SetEvent and ClearEvent items of tasks on the GPU signal the offloading CPU task; "
                "they change nothing on the GPU");
        if (cpu_side()) return plans;
        if (gpu_.has_mapping) {
            const std::string why =
                options_.cpu_side ? "the CPU side is left out (" + cpu_left_out_ + ")" : "--gpu-only";
            out_.notes.push_back(why +
                                 ": the CPU tasks are left out, and the GPU tasks they offload are released "
                                 "as if those tasks were never delayed by other CPU tasks");
            std::string others;
            for (const std::string& t : gpu_.other_tasks) others += (others.empty() ? "'" : ", '") + t + "'";
            if (!others.empty()) out_.notes.push_back("tasks not on the GPU, left out: " + others);
            return plans;
        }
        for (const pugi::xml_node& r : sw.children("runnables"))
            if (!called.count(r.attribute("name").value())) plans.push_back({r.attribute("name").value(), r, {r}, {}});
        if (plans.empty()) throw InputError(src_.where(sw), "the software model has no runnable");
        return plans;
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
        out_.notes.push_back("one tick = " + human_string(*options_.tick_time) + " given by --tick-time");
        return *options_.tick_time;
    }

    // The operation a runnable of a GPU task is: a kernel (Ticks) or a copy (label accesses).
    Operation operation(const pugi::xml_node& r, const std::string& name, int stream) {
        const RunnableBody body = runnable_body(src_, r);
        const std::string runnable = r.attribute("name").value();
        const bool labels = !body.reads.empty() || !body.writes.empty();
        if (!body.ticks.empty() && labels)
            throw InputError(src_.where(r), "runnable " + quoted_name(runnable) +
                                                " on the GPU has both Ticks and LabelAccess items: gpuwcrt reads "
                                                "a runnable of label accesses as a copy and one of Ticks as a "
                                                "kernel, and cannot tell which this one is");
        if (body.switched_labels)
            throw InputError(src_.where(r), "runnable " + quoted_name(runnable) +
                                                " on the GPU accesses labels in a ProbabilitySwitch: the size of "
                                                "its copy depends on a branch gpuwcrt does not model");
        if (body.ticks.empty() && !labels)
            throw InputError(src_.where(r), "runnable " + quoted_name(runnable) +
                                                " has no Ticks item (a kernel's block time) and no LabelAccess "
                                                "(a copy's data)");
        Operation op = labels ? copy(r, body) : kernel(r, body);
        op.name = name;
        op.stream = stream;
        op.where = src_.where(r);
        return op;
    }

    Operation kernel(const pugi::xml_node& r, const RunnableBody& body) {
        if (!tick_) tick_ = tick_duration();
        const std::string name = r.attribute("name").value();
        Operation k;
        k.kind = OpKind::kernel;
        k.blocks = per_kernel(r, "GridSize", options_.grid, "--grid", limits::max_blocks).value_or(1);
        const std::optional<std::int64_t> threads =
            per_kernel(r, "BlockSize", options_.block_size, "--block-size", 1024);
        k.threads = threads.value_or(options_.threads);
        if (given_.insert(name).second) note_given(name, k, threads.has_value());
        k.shared_mem = integer_property(src_, r, "SharedMemory", 0, limits::max_resource).value_or(0);
        k.registers = integer_property(src_, r, "Registers", 0, limits::max_resource).value_or(0);
        const TimeRange ticks = ticks_on(src_, body, gpu_.gpu_definitions,
                                         "a GPU ProcessingUnitDefinition "
                                         "(puType=\"GPU\")");
        const std::int64_t waves = kernel_waves(k, out_.workload.platform);
        k.time = {ticks.lo * *tick_ / waves, ticks.hi * *tick_ / waves};
        if (waves > 1)
            out_.notes.push_back("kernel " + quoted_name(name) + " runs its " + std::to_string(k.blocks) +
                                 " blocks in " + std::to_string(waves) + " waves alone on the GPU: block time = " +
                                 "Ticks / " + std::to_string(waves) + ", so that it alone takes its Ticks");
        kernels_.insert(name);
        return k;
    }

    // What a kernel's grid and block size rest on when the model does not give them: the
    // certificate repeats it (Workload::assumptions).
    void note_given(const std::string& name, const Operation& k, bool has_block_size) {
        if (options_.grid.count(name))
            out_.notes.push_back("grid of " + quoted_name(name) + " given by --grid: " + std::to_string(k.blocks) +
                                 (k.blocks == 1 ? " block" : " blocks"));
        if (options_.block_size.count(name))
            out_.notes.push_back("threads per block of " + quoted_name(name) +
                                 " given by --block-size: " + std::to_string(k.threads));
        else if (!has_block_size) threads_defaulted_ += (threads_defaulted_.empty() ? "" : ", ") + quoted_name(name);
    }

    // A custom property of a kernel, or the option's value for it; a kernel without a grid is
    // remembered, so that one message names them all.
    std::optional<std::int64_t> per_kernel(const pugi::xml_node& r, const char* key,
                                           const std::map<std::string, std::int64_t>& option, const char* flag,
                                           std::int64_t max) {
        const std::string name = r.attribute("name").value();
        const auto model = integer_property(src_, r, key, 1, max);
        const auto it = option.find(name);
        if (model && it != option.end())
            throw option_error(flag, "runnable " + quoted_name(name) + " has the custom property " + key + " = " +
                                         std::to_string(*model) + " in the model; remove " + flag + " " + name);
        if (it != option.end()) return it->second;
        if (!model && std::string(key) == "GridSize" && !missing_grid_.count(name)) {
            missing_grid_.insert(name);
            missing_grid_order_.push_back(r);
        }
        return model;
    }

    Operation copy(const pugi::xml_node& r, const RunnableBody& body) {
        const std::string name = r.attribute("name").value();
        if (!gpu_.data_rate)
            throw InputError(src_.where(r), "runnable " + quoted_name(name) +
                                                " copies labels, but no GPU ProcessingUnit has an access element "
                                                "with a <dataRate>, so the copy has no duration");
        const Time bytes = std::max(label_bytes(body.reads), label_bytes(body.writes));
        if (bytes <= 0) throw InputError(src_.where(r), "runnable " + quoted_name(name) + " copies labels of size 0");
        Operation c;
        c.kind = OpKind::copy;
        const Time ms = bytes / *gpu_.data_rate;
        c.time = {ms, ms};
        return c;
    }

    Time label_bytes(const std::vector<pugi::xml_node>& accesses) const {
        Time sum = 0;
        for (const pugi::xml_node& a : accesses) {
            const std::string text = src_.required(a, "data");
            const auto ref = parse_reference(text);
            const auto it = ref ? model_.labels.find(ref->name) : model_.labels.end();
            if (it == model_.labels.end())
                throw InputError(src_.where(a), "LabelAccess of " + quoted_name(text.substr(0, 80)) +
                                                    ", which is no label of this model");
            const pugi::xml_node size = it->second.child("size");
            if (!size)
                throw InputError(src_.where(it->second),
                                 "label " + quoted_name(it->first) + " has no <size>, so a copy of it has no duration");
            sum += data_size_bytes(src_, size);
        }
        return sum;
    }

    void emit(const std::vector<StreamPlan>& plans) {
        Workload& w = out_.workload;
        for (const StreamPlan& p : plans) {
            check_name(src_.where(p.where), p.name, "stream (task or runnable) name");
            w.streams.push_back({p.name, Priority::low, false, src_.where(p.where), p.activation.arrival});
        }
        contexts(plans);
        for (std::size_t s = 0; s < plans.size(); ++s) frame(plans[s], static_cast<int>(s));
        if (cpu_side()) {
            std::map<std::string, int> streams;
            for (std::size_t s = 0; s < plans.size(); ++s) streams[plans[s].name] = static_cast<int>(s);
            import_cpu_side(src_, model_, gpu_, {streams, options_.priority}, w, out_.notes);
        }
        if (!missing_grid_order_.empty()) missing_grids();
        if (!threads_defaulted_.empty())
            out_.notes.push_back(std::to_string(options_.threads) +
                                 " threads per block (--threads, default 512) for the kernels whose model has no "
                                 "BlockSize: " +
                                 threads_defaulted_);
    }

    // One context per GPU task with the slice its allocation gives, in the tasks' order; the
    // context switch the model does not give is the default, named in the assumptions.
    void contexts(const std::vector<StreamPlan>& plans) {
        if (sched_.slices.empty()) return;
        Workload& w = out_.workload;
        if (w.time_unit.empty())
            throw InputError(src_.where(plans.front().where),
                             "the GPU scheduler's time slices are in physical time, but the model has no GPU "
                             "frequency and no periodic stimulus to put the workload in milliseconds");
        for (std::size_t i = 0; i < plans.size(); ++i) {
            const GpuTimeSlice& slice = sched_.slices.at(plans[i].name);
            w.contexts.push_back({plans[i].name, slice.slice, slice.where});
            w.streams[i].context = static_cast<int>(i);
        }
        if (!w.sliced()) return;
        w.platform.context_switch = *default_context_switch(w.time_unit);
        out_.notes.push_back(context_switch_assumption(w));
    }

    void frame(const StreamPlan& p, int stream) {
        Workload& w = out_.workload;
        for (std::size_t i = 0; i < p.calls.size(); ++i) {
            const pugi::xml_node r = p.calls[i];
            const std::string base = r.attribute("name").value();
            check_name(src_.where(r), base, "runnable name");
            std::string name = base;
            for (int n = 2; names_.count(name); ++n) name = base + " (" + std::to_string(n) + ")";
            names_.insert(name);
            Operation op = operation(r, name, stream);
            if (i > 0) op.issue.kind = IssueSpec::Kind::with_previous;
            op.position = static_cast<int>(i);
            total_blocks_ = checked_add(total_blocks_, op.blocks).value_or(limits::max_total + 1);
            if (total_blocks_ > limits::max_total)
                throw InputError(op.where, "the workload would have more than 2^62 blocks");
            w.ops.push_back(std::move(op));
        }
    }

    void requirements(ImportedRequirements r) {
        out_.notes.insert(out_.notes.end(), r.notes.begin(), r.notes.end());
        out_.warnings = std::move(r.warnings);
    }

    void missing_grids() {
        std::string names, example;
        for (const pugi::xml_node& r : missing_grid_order_) {
            const std::string n = r.attribute("name").value();
            if (!names.empty()) names += ", ";
            names += quoted_name(n);
            if (!example.empty()) example += " ";
            example += "--grid " + n + "=N";
        }
        throw InputError(src_.where(missing_grid_order_.front()),
                         std::to_string(missing_grid_order_.size()) +
                             " kernel(s) without a grid (the custom property GridSize, the number of blocks): " +
                             names + "; give each one with " + example);
    }

    bool cpu_side() const { return options_.cpu_side && gpu_.has_mapping && cpu_left_out_.empty(); }

    void check_options() const {
        for (const auto* option : {&options_.grid, &options_.block_size})
            for (const auto& [name, value] : *option) {
                const char* flag = option == &options_.grid ? "--grid" : "--block-size";
                if (!kernels_.count(name))
                    throw option_error(flag, quoted_name(name) +
                                                 " is no kernel of this import (a runnable with "
                                                 "Ticks of a task on the GPU)");
            }
    }

    const XmlSource& src_;
    const AmaltheaImportOptions& options_;
    ModelIndex model_;
    amalthea::GpuContext gpu_;  // not gpuwcrt::GpuContext, the model's time-slice group
    GpuScheduling sched_;
    bool physical_ = false, events_ = false;
    std::optional<Time> tick_;
    std::int64_t total_blocks_ = 0;
    std::set<std::string> names_, kernels_, missing_grid_, given_;
    std::string threads_defaulted_;  // the kernels given --threads, quoted, comma-separated
    std::string cpu_left_out_;       // why the CPU side is not imported, "" when it is
    std::vector<pugi::xml_node> missing_grid_order_;
    AmaltheaImport out_;
};

}  // namespace
}  // namespace gpuwcrt::amalthea

namespace gpuwcrt {

AmaltheaImport import_amalthea_text(const std::string& text, const std::string& name,
                                    const AmaltheaImportOptions& options) {
    for (const auto& [runnable, n] : options.grid)
        if (n < 1 || n > limits::max_blocks)
            throw option_error("--grid", runnable + "=" + std::to_string(n) + ": the grid must be from 1 to 2^40");
    for (const auto& [runnable, n] : options.block_size)
        if (n < 1 || n > 1024)
            throw option_error("--block-size", runnable + "=" + std::to_string(n) + ": must be from 1 to 1024");
    const amalthea::XmlSource src(text, name);
    return amalthea::AmaltheaImporter(src, options).run();
}

AmaltheaImport import_amalthea_file(const std::string& path, const AmaltheaImportOptions& options) {
    return import_amalthea_text(read_input_file(path), path == "-" ? "<stdin>" : path, options);
}

}  // namespace gpuwcrt
