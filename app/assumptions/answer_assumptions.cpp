#include "app/assumptions/answer_assumptions.hpp"

namespace gpuwcrt::app {

std::vector<Assumption> answer_assumptions(const Workload& w, const VerifyOptions& o,
                                           const std::vector<std::string>& arguments) {
    std::vector<Assumption> out;
    for (const std::string& a : w.assumptions) out.push_back({a, AssumptionSource::import});
    if (o.policy == "any")
        out.push_back(
            {"SM placement: any SM where a block fits (--policy any), which covers the TX2's unknown "
             "placement heuristic",
             AssumptionSource::default_value});
    else
        out.push_back({"SM placement fixed to " + o.policy +
                           " by --policy: the bounds hold only where the hardware places blocks so",
                       AssumptionSource::option});
    if (o.engine != default_engine)
        out.push_back({"engine " + o.engine + " chosen by --engine", AssumptionSource::option});
    if (o.timeout)
        out.push_back({"analysis limited to --timeout " + *o.timeout + " s: what it had not decided by then is unknown",
                       AssumptionSource::option});
    for (const std::string& a : arguments) out.push_back({a, AssumptionSource::argument});
    return out;
}

void add_bound_assumptions(std::vector<Assumption>& out, const std::vector<std::string>& bounds, bool only_bounds) {
    for (const std::string& b : bounds)
        out.push_back({"bound " + b + " given by --bound, instead of the file's deadline", AssumptionSource::option});
    if (only_bounds)
        out.push_back({"only the operations named by --bound are checked (--only-bounds)", AssumptionSource::option});
}

}  // namespace gpuwcrt::app
