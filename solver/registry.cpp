#include "solver/registry.hpp"

#include <stdexcept>

#include "solver/block/auto_engine.hpp"
#include "solver/block/engines/bounds_engine.hpp"
#include "solver/block/engines/enumerate_engine.hpp"
#include "solver/block/engines/exact_engine.hpp"
#include "solver/block/engines/smt_engine.hpp"

namespace gpuwcrt {
namespace {

const std::vector<const Engine*>& engines() {
    static const AutoEngine automatic;
    static const BoundsEngine bounds;
    static const ExactEngine exact;
    static const SmtEngine smt;
    static const EnumerateEngine enumerate;
    static const std::vector<const Engine*> all = {&automatic, &bounds, &exact, &smt, &enumerate};
    return all;
}

}  // namespace

const Engine& engine_named(std::string_view name) {
    for (const Engine* e : engines())
        if (e->name() == name) return *e;
    throw std::invalid_argument("unknown engine '" + std::string(name) + "'");
}

std::vector<std::string> engine_names() {
    std::vector<std::string> out;
    for (const Engine* e : engines()) out.emplace_back(e->name());
    return out;
}

}  // namespace gpuwcrt
