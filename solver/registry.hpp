#pragma once
// The engines by name: the one place the names of --engine are spelled, for the block-level
// engines of wcrt / certify / rta-check and the warp engines of `warp`.
#include <string>
#include <string_view>
#include <vector>

namespace gpuwcrt {

class Engine;

namespace engine_name {
inline constexpr std::string_view automatic = "auto";  // the plan of solver/block/run_plan.hpp
inline constexpr std::string_view bounds = "bounds";
inline constexpr std::string_view exact = "exact";
inline constexpr std::string_view smt = "smt";
inline constexpr std::string_view enumerate = "enumerate";
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

}  // namespace gpuwcrt
