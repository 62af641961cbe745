#pragma once
// Warp machines and programs from TOML (cases/raravi2010/*.toml); schema in
// docs/reference/warp.md. Unknown keys are input errors at file:line:column.
#include <optional>
#include <string>

#include "model/warp/warp_model.hpp"

namespace gpuwcrt {

struct WarpSpec {
    WarpMachine machine;
    WarpProgram program;
    std::optional<int> rep;
    std::optional<WarpFairness> fairness;
};

WarpSpec load_warp_spec_text(const std::string& text, const std::string& name);
WarpSpec load_warp_spec_file(const std::string& path);

}  // namespace gpuwcrt
