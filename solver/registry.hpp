#pragma once
// The engines by name: the one place the names of --engine are spelled, for the block-level
// engines of wcrt / certify / rta-check and the warp engines of `warp`.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gpuwcrt {

class Engine;
struct BlockProblem;
struct Workload;
struct PlanStep;
struct WarpEngines;

namespace engine_name {
inline constexpr std::string_view automatic = "auto";  // the plan of solver/block/plan/run_plan.hpp
inline constexpr std::string_view bounds = "bounds";
inline constexpr std::string_view exact = "exact";
inline constexpr std::string_view smt = "smt";
inline constexpr std::string_view enumerate = "enumerate";
// Links of auto's chain only, not choices of --engine: alone they answer upper bounds and never
// a lower bound or an exact value, which wcrt and certify already show beside any engine's own
// (the interference bound in bounds' answers, the busy-time bound in smt's and enumerate's).
inline constexpr std::string_view interference = "interference";
inline constexpr std::string_view busy_time = "busy-time";
// The all-time analysis of periodic and sporadic streams (solver/frames/all_time_engine.hpp):
// what auto runs on such a workload (engine_for), not a choice of --engine.
inline constexpr std::string_view all_time = "all-time";
}  // namespace engine_name

// The warp-level engines (solver/warp/warp_check.hpp, `gpuwcrt warp`).
namespace warp_engine_name {
inline constexpr std::string_view automatic = "auto";
inline constexpr std::string_view bounds = "bounds";
inline constexpr std::string_view explicit_state = "explicit";
inline constexpr std::string_view smt = "smt";
inline constexpr std::string_view both = "both";  // explicit and smt, cross-checked
}  // namespace warp_engine_name

// The block-level engine called `name`; throws std::invalid_argument for an unknown name
// (the command line checks it first against engine_names()).
const Engine& engine_named(std::string_view name);
// Every block-level engine's name, in the order of --help; the default first.
std::vector<std::string> engine_names();
inline constexpr std::string_view default_engine = engine_name::automatic;
// The engine --engine `name` runs on `w`: auto is the all-time engine when `w` has periodic or
// sporadic streams (frames), else engine_named(name). A named engine of one frame stays itself:
// require_engine_scope refuses it frames.
const Engine& engine_for(std::string_view name, const Workload& w);

// A link of auto's chain (solver/block/plan/auto_engine.hpp): the engine of the plan step `step`
// (solver/block/plan/run_plan.hpp), configured by it (the exact step's state limit, the
// abstraction's quick pass); the SMT and busy-time links on `smt_problem`, which the chain
// builds once. The one place a link is made: auto constructs none itself.
std::unique_ptr<Engine> plan_link(const PlanStep& step, std::shared_ptr<const BlockProblem> smt_problem);

// The warp engines called `name` (`gpuwcrt warp --engine`), nullptr for an unknown name; their
// names in the order of --help.
const WarpEngines* warp_engines_named(std::string_view name);
std::vector<std::string> warp_engine_names();

}  // namespace gpuwcrt
