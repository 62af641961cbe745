#include "model/frames/frame_name.hpp"

#include <limits>

namespace gpuwcrt {

std::string frame_op_name(std::string_view name, std::int64_t frame) {
    std::string out(name);
    out += frame_separator;
    out += std::to_string(frame);
    return out;
}

std::optional<std::pair<std::string, std::int64_t>> split_frame_name(std::string_view name) {
    const std::size_t at = name.rfind(frame_separator);
    if (at == std::string_view::npos || at == 0) return std::nullopt;
    const std::string_view digits = name.substr(at + 1);
    if (digits.empty() || digits.size() > 18 || (digits.size() > 1 && digits[0] == '0')) return std::nullopt;
    std::int64_t k = 0;  // at most 18 digits: below 10^18, no overflow
    for (char c : digits) {
        if (c < '0' || c > '9') return std::nullopt;
        k = k * 10 + (c - '0');
    }
    return std::pair{std::string(name.substr(0, at)), k};
}

std::optional<int> frame_name_origin(const Workload& w, std::string_view name) {
    auto repeats = [&](int op) { return w.streams[w.ops[op].stream].arrival.repeats(); };
    if (const auto plain = w.find_op(std::string(name)); plain && !repeats(*plain)) return plain;
    if (!w.repeats()) return std::nullopt;
    const auto parts = split_frame_name(name);
    if (!parts) return std::nullopt;
    const auto origin = w.find_op(parts->first);
    if (origin && repeats(*origin)) return origin;
    return std::nullopt;
}

}  // namespace gpuwcrt
