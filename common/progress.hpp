#pragma once
// Lines for the user during a long run, passed down from a command to the engines of every
// layer (an engine's steps, the exact search's levels, the SMT encoding's families); may be empty.
#include <functional>
#include <string>

namespace gpuwcrt {

using ProgressSink = std::function<void(const std::string&)>;

}  // namespace gpuwcrt
