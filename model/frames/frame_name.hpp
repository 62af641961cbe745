#pragma once
// The names of unrolled operations: frame k of operation NAME is NAME#k. In a workload with a
// periodic or sporadic stream no operation name contains '#' (validate_frames), so these names
// are unique and split back into their parts; a plain one-frame operation keeps its name.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "model/workload.hpp"

namespace gpuwcrt {

inline constexpr char frame_separator = '#';

std::string frame_op_name(std::string_view name, std::int64_t frame);

// NAME#k as (NAME, k) when `name` has that form: k decimal digits without a sign or a leading
// zero, within int64; nullopt otherwise.
std::optional<std::pair<std::string, std::int64_t>> split_frame_name(std::string_view name);

// The operation of `w` that `name` denotes in its unrolled workload: NAME#k for an operation of a
// periodic or sporadic stream, the plain name for one of a stream that runs once.
std::optional<int> frame_name_origin(const Workload& w, std::string_view name);

}  // namespace gpuwcrt
