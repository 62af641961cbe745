#include "report/warp/warp_schedule_text.hpp"

#include <algorithm>
#include <string>

namespace gpuwcrt {

void print_warp_schedule(std::ostream& out, const WarpSchedule& s, int warp_size, long long threads) {
    const int cycles = s.makespan();
    const std::size_t cell = std::to_string(std::max(cycles, 1)).size();
    std::vector<std::string> labels;
    for (std::size_t w = 0; w < s.rows.size(); ++w) {
        const long long first = static_cast<long long>(w) * warp_size + 1;
        const long long last = std::min(threads, first + warp_size - 1);
        labels.push_back("Threads " + std::to_string(first) + "-" + std::to_string(last));
    }
    labels.push_back("Clock cycle");
    std::size_t label_width = 0;
    for (const auto& l : labels) label_width = std::max(label_width, l.size());
    auto pad = [](std::string s, std::size_t w) { return std::string(w > s.size() ? w - s.size() : 0, ' ') + s; };
    for (std::size_t w = 0; w < s.rows.size(); ++w) {
        std::string line = labels[w] + std::string(label_width - labels[w].size(), ' ');
        for (int c = 0; c < cycles; ++c)
            line += " " + pad(std::string(1, s.rows[w][static_cast<std::size_t>(c)]), cell);
        out << line << '\n';
    }
    std::string line = labels.back() + std::string(label_width - labels.back().size(), ' ');
    for (int c = 1; c <= cycles; ++c) line += " " + pad(std::to_string(c), cell);
    out << line << '\n';
}

Json warp_schedule_json(const WarpSchedule& s) {
    Json rows = Json::array();
    const int cycles = s.makespan();
    for (const auto& r : s.rows) {
        Json row = Json::array();
        for (int c = 0; c < cycles; ++c) row.push_back(std::string(1, r[static_cast<std::size_t>(c)]));
        rows.push_back(row);
    }
    return rows;
}

}  // namespace gpuwcrt
